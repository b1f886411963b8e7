package dev.santabatch.eval;

import java.util.List;
import java.util.Map;

/**
 * The words {@link RecipeCatalogGenerator} writes recipe cards with: source values (main ingredients, courses,
 * regions), sentence templates, and the wordings its planted defects use. Data only; templates hold the
 * placeholders {@code {title}}, {@code {noun}} (the course), {@code {region}}, {@code {s}} (servings), {@code {p}}
 * (preparation minutes), {@code {c}} (cooking minutes), {@code {k}} (calories), {@code {list}} (the ingredients),
 * {@code {main}} (the main ingredient), {@code {1}}–{@code {3}} (method steps) and {@code {v}} (a claim's variant).
 */
final class RecipeVocabulary {

    private RecipeVocabulary() {}

    /** The sentence every card whose main ingredient is a nut must carry, verbatim. */
    static final String NUT_NOTICE = "Allergy advice: this recipe contains nuts and is not suitable for anyone with a nut allergy.";

    /**
     * A main ingredient as the source names it, the word a title uses for it, whether it is a nut, and whether it
     * suits sweet and savoury courses.
     */
    record Main(String name, String titleWord, boolean nut, boolean sweet, boolean savoury) {
        boolean suits(Course course) {
            return course.sweet() ? sweet : savoury;
        }
    }

    /**
     * A course: its category label (the source column), the noun the card calls it, the word a title uses, whether
     * it is sweet, the staples its method uses (always listed), and its method steps as three stages done in this
     * order, each with alternative wordings.
     */
    record Course(String category, String noun, String titleWord, boolean sweet, List<String> staples,
                  List<List<String>> stages) {}

    /** A sentence stating servings and times, and the spans of it that carry each number. */
    record TimeTemplate(String sentence, String servingsSpan, String prepSpan, String cookSpan) {}

    /** A sentence stating the calories per serving, and the span that carries the number. */
    record CalorieTemplate(String sentence, String span) {}

    /** A serving tip in English and as a model drifting into another language writes it (language code → text). */
    record Tip(String english, Map<String, String> translations) {}

    /** A forbidden health claim: its base term, a sentence with a {@code {v}} slot, and the variants written there. */
    record Claim(String base, String sentence, List<String> variants) {}

    static final List<Main> MAINS = List.of(
            new Main("chickpeas", "Chickpea", false, false, true), new Main("red lentils", "Lentil", false, false, true),
            new Main("chicken thighs", "Chicken", false, false, true), new Main("salmon fillets", "Salmon", false, false, true),
            new Main("aubergines", "Aubergine", false, false, true), new Main("pumpkin", "Pumpkin", false, true, true),
            new Main("spinach", "Spinach", false, false, true), new Main("potatoes", "Potato", false, false, true),
            new Main("mushrooms", "Mushroom", false, false, true), new Main("firm tofu", "Tofu", false, false, true),
            new Main("apples", "Apple", false, true, false), new Main("carrots", "Carrot", false, true, true),
            new Main("almonds", "Almond", true, true, true), new Main("cashews", "Cashew", true, false, true),
            new Main("walnuts", "Walnut", true, true, true), new Main("hazelnuts", "Hazelnut", true, true, false),
            new Main("peanuts", "Peanut", true, false, true));

    static final List<String> OTHER_INGREDIENTS = List.of("olive oil", "garlic", "a white onion", "lemon juice",
            "flat-leaf parsley", "ground cumin", "butter", "brown sugar", "plain flour", "free-range eggs",
            "chopped tomatoes", "a red chilli", "fresh ginger", "runny honey", "Greek yoghurt", "coriander leaves",
            "black pepper", "sea salt", "smoked paprika", "vegetable stock", "mixed salad leaves", "icing sugar",
            "basmati rice");

    static final List<Course> COURSES = List.of(
            new Course("Soups", "soup", "Soup", false, List.of("a white onion", "garlic", "vegetable stock"), List.of(
                    List.of("chop the onion and garlic", "dice the {main} and the onion"),
                    List.of("simmer everything in the stock until tender", "add the stock and bring it to a gentle simmer"),
                    List.of("blend until smooth and serve", "ladle it into warm bowls"))),
            new Course("Salads", "salad", "Salad", false, List.of("mixed salad leaves", "olive oil", "lemon juice"), List.of(
                    List.of("wash and dry the leaves", "shake the dressing together in a small jar"),
                    List.of("toss the {main} with the leaves", "combine everything in a large bowl"),
                    List.of("dress the salad just before serving", "scatter over the herbs and serve"))),
            new Course("Curries", "curry", "Curry", false, List.of("a white onion", "ground cumin", "chopped tomatoes", "basmati rice"), List.of(
                    List.of("fry the spices in hot oil until fragrant", "soften the onion in a wide pan"),
                    List.of("stir in the {main} and the tomatoes", "add the {main} and simmer until the sauce thickens"),
                    List.of("serve it over the rice", "let it rest off the heat before serving with the rice"))),
            new Course("Stews", "stew", "Stew", false, List.of("a white onion", "garlic", "vegetable stock"), List.of(
                    List.of("brown the {main} in a heavy pot", "sweat the onion and garlic in a little oil"),
                    List.of("cover and cook slowly until tender", "pour in the stock and braise gently"),
                    List.of("check the seasoning and serve", "spoon it into deep plates at the table"))),
            new Course("Cakes", "cake", "Cake", true, List.of("butter", "brown sugar", "plain flour", "icing sugar"), List.of(
                    List.of("heat the oven and line the tin", "cream the butter and brown sugar until pale"),
                    List.of("fold in the flour and the {main}", "pour the batter into the tin and bake until a skewer comes out clean"),
                    List.of("cool it on a rack before slicing", "dust it with icing sugar once cold"))),
            new Course("Bakes", "oven bake", "Bake", false, List.of("olive oil", "sea salt", "black pepper"), List.of(
                    List.of("heat the oven and grease a baking dish", "slice the {main} thinly"),
                    List.of("layer everything in the dish and bake until golden", "cover the dish with foil and bake"),
                    List.of("rest it briefly before serving", "serve it straight from the dish"))));

    static final List<String> REGIONS = List.of("Tuscany", "Kerala", "Oaxaca", "Provence", "Andalusia", "Sichuan",
            "Punjab", "Bavaria", "Anatolia", "Brittany", "Galicia", "Yorkshire", "Catalonia", "Sicily");

    static final List<String> TITLE_PREFIXES = List.of("Rustic", "Spiced", "Golden", "Simple", "Slow-Cooked",
            "Weeknight", "Smoky", "Herby", "Sunday");

    static final List<String> INTROS = List.of(
            "{title} is a home-style {noun} from {region}.",
            "From the kitchens of {region} comes {title}, a {noun} for any day of the week.",
            "{title} brings the flavours of {region} to your table in one generous {noun}.",
            "This {noun}, {title}, is cooked all over {region}.");

    static final List<TimeTemplate> TIMES = List.of(
            new TimeTemplate("It serves {s} and takes {p} minutes to prepare and {c} minutes to cook.",
                    "serves {s}", "{p} minutes to prepare", "{c} minutes to cook"),
            new TimeTemplate("Preparation takes {p} minutes and cooking another {c}; the recipe serves {s}.",
                    "serves {s}", "takes {p} minutes", "another {c}"),
            new TimeTemplate("Serves {s}. Prep time: {p} minutes. Cook time: {c} minutes.",
                    "Serves {s}", "Prep time: {p} minutes", "Cook time: {c} minutes"));

    static final List<String> INGREDIENT_LINES = List.of("You will need {list}.", "The ingredients are {list}.",
            "Gather {list} before you start.");

    static final List<String> METHODS = List.of("First {1}, then {2}, and finally {3}.",
            "Begin like this: {1}; next, {2}; to finish, {3}.", "To make it, {1}, {2} and then {3}.");

    static final List<CalorieTemplate> CALORIES = List.of(
            new CalorieTemplate("Each serving has about {k} calories.", "about {k} calories"),
            new CalorieTemplate("One portion comes to roughly {k} kcal.", "roughly {k} kcal"),
            new CalorieTemplate("There are {k} calories in a serving.", "{k} calories in a serving"));

    static final List<Tip> TIPS = List.of(
            new Tip("Serve it with crusty bread.", Map.of("fr", "Servez-le avec du pain croustillant.",
                    "es", "Sírvelo con pan crujiente.", "de", "Dazu passt knuspriges Brot.",
                    "it", "Servitelo con pane croccante.")),
            new Tip("A squeeze of lemon lifts it at the end.", Map.of("fr", "Un filet de citron le relève à la fin.",
                    "es", "Un chorrito de limón lo realza al final.", "de", "Ein Spritzer Zitrone hebt es am Ende.",
                    "it", "Una spruzzata di limone lo ravviva alla fine.")),
            new Tip("A spoonful of yoghurt on top is lovely.", Map.of("fr", "Une cuillerée de yaourt par-dessus est délicieuse.",
                    "es", "Una cucharada de yogur por encima queda deliciosa.", "de", "Ein Löffel Joghurt obendrauf ist köstlich.",
                    "it", "Un cucchiaio di yogurt sopra è delizioso.")),
            new Tip("It pairs well with a crisp green salad.", Map.of("fr", "Il se marie bien avec une salade verte croquante.",
                    "es", "Combina bien con una ensalada verde crujiente.", "de", "Dazu passt ein knackiger grüner Salat.",
                    "it", "Si abbina bene a un'insalata verde croccante.")),
            new Tip("Toasted seeds add a pleasant crunch.", Map.of("fr", "Des graines grillées ajoutent du croquant.",
                    "es", "Unas semillas tostadas aportan un toque crujiente.", "de", "Geröstete Samen sorgen für Biss.",
                    "it", "I semi tostati aggiungono croccantezza.")));

    static final List<String> CLOSINGS = List.of(
            "Leftovers keep well in a covered container in the fridge.",
            "Any leftovers can be frozen and reheated gently on the hob.",
            "It tastes even better the next day, once the flavours have settled.",
            "Store leftovers in the fridge and eat them within a couple of days.",
            "The dish can be made ahead and warmed through just before serving.");

    static final List<Claim> CLAIMS = List.of(
            new Claim("detox", "This {v} bowl resets your whole system.", List.of("detox", "detoxifying", "de-tox", "DETOX")),
            new Claim("cure", "Many cooks say it {v} colds and headaches.", List.of("cures", "can cure", "will cure")),
            new Claim("fat-burning", "It is a {v} meal that melts the kilos away.", List.of("fat-burning", "fat burning", "Fat-Burning")),
            new Claim("miracle", "The result is a {v} for tired evenings.", List.of("miracle", "true miracle", "Miracle")));

    /** What a model writes instead of the nut notice when it paraphrases it. */
    static final List<String> NOTICE_STAND_INS = List.of("Contains nuts.", "Heads-up: there are nuts in this one.",
            "Allergy advice: may contain traces of nuts.");

    static final List<String> NUMBER_WORDS = List.of("zero", "one", "two", "three", "four", "five", "six", "seven",
            "eight", "nine", "ten", "eleven", "twelve");
}
