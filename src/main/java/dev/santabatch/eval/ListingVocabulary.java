package dev.santabatch.eval;

import java.util.List;

/**
 * The word material of {@link ListingCatalogGenerator}: two disjoint {@link Pool}s of sentence templates,
 * listing names, cities and regions, category wording, quantity phrasings, practical sentences, boilerplate
 * passages and defect wordings. {@link #TUNING} may be used to tune anything; {@link #HELD_OUT} never is.
 * What the pools share is the task's own text: the {@link #NOTICE park notice}, the euro price styles and the
 * base terms of the forbidden claims (their wordings in text differ).
 *
 * <p>Rules for every string in here, so that a clean listing states nothing wrong: no digits and no number
 * words outside the quantity styles; no forbidden claim, nor "guarantee", "lifetime", "best" or "world"; no
 * city name outside the {@code {city}} and {@code {ocity}} placeholders; no currency but through the price
 * styles; no accessibility, schedule, children or pets statement outside the practical sentences; no article
 * directly before a quantity placeholder ("a eight-hour" would read wrong).
 *
 * <p>Placeholders: {name} {a_noun} (category noun with its article) {city} {region} {hl} {hl2} (highlights of
 * the colour sentences) {hl3} (the intro's highlight, another one)
 * {dist} {dur} {group} {rating} {price} (quantity phrases) {ocity} (another item's city). Quantity styles:
 * {n} digits, {w} number words, {min} minutes, {p} the price with two decimals.
 */
final class ListingVocabulary {
    private ListingVocabulary() {}

    /** The activity behind a category: the ranges its columns are drawn from. */
    enum Activity {
        WALK(3, 6, 8, 20, 2, 30, 12, 35),
        BOAT(2, 8, 12, 40, 5, 150, 18, 75),
        FOOD(4, 8, 6, 14, 2, 25, 35, 95),
        CYCLE(4, 12, 6, 15, 10, 100, 25, 80),
        MUSEUM(2, 6, 10, 25, 2, 50, 10, 30),
        HIKE(8, 16, 6, 16, 100, 600, 30, 90);

        /** Duration range in half hours. */
        final int minHalfHours;
        final int maxHalfHours;
        final int minGroup;
        final int maxGroup;
        /** Distance from the city centre in tenths of a kilometre. */
        final int minDistTenths;
        final int maxDistTenths;
        /** Price range in whole euros. */
        final int minPrice;
        final int maxPrice;

        Activity(int minHalfHours, int maxHalfHours, int minGroup, int maxGroup, int minDistTenths, int maxDistTenths,
                 int minPrice, int maxPrice) {
            this.minHalfHours = minHalfHours;
            this.maxHalfHours = maxHalfHours;
            this.minGroup = minGroup;
            this.maxGroup = maxGroup;
            this.minDistTenths = minDistTenths;
            this.maxDistTenths = maxDistTenths;
            this.minPrice = minPrice;
            this.maxPrice = maxPrice;
        }
    }

    /** A category of a pool: its column label, the nouns and highlights the text uses, listing name parts. */
    record Category(Activity activity, String label, List<String> nouns, List<String> highlights,
                    List<String> stems, List<String> suffixes) {}

    /** A city and the region it lies in. */
    record City(String name, String region) {}

    /** A practical statement on a topic (schedule, access, children, pets), permissive or restrictive. */
    record Practical(String topic, boolean permissive, String sentence) {}

    /** A forbidden-claim sentence: the rubric's base term and the variant as the sentence writes it. */
    record Forbidden(String term, String variant, String template) {}

    /** A boilerplate passage: slots, each with four alternatives of the same meaning (paraphrases). */
    record Passage(String id, List<List<String>> slots) {}

    /**
     * How a pool writes quantities: rating, distance in kilometres and in miles, group size, duration; each a
     * list of styles. Miles are stated with one decimal ({n} only).
     */
    record Styles(List<String> rating, List<String> km, List<String> miles, List<String> group, List<String> duration) {}

    /**
     * Everything that differs between the tuning and the held-out catalogs. {@code houseStyle}: the shop's own
     * fact-free lines (no number, no city, no practical statement), which many clean listings share legitimately.
     */
    record Pool(String tag, List<Category> categories, List<City> cities, String parkRegion, List<String> intros,
                List<String> introsWithDistance, List<String> wheres, List<String> logistics, List<String> values,
                List<String> colors, List<Practical> practicals, List<Forbidden> forbidden, List<String> offTopic,
                List<Passage> passages, List<String> noticeMisses, List<String> wrongPrices, Styles styles,
                List<String> houseStyle) {}

    /** Required, verbatim, in every listing of a pool's {@link Pool#parkRegion() park region}. */
    static final String NOTICE = "This activity takes place inside a national park: a park permit is required for every"
            + " participant and is included in the price.";

    /** The euro price styles (symbol, word, code) both pools write; {@link Pool#wrongPrices()} mirror them. */
    static final List<String> PRICES = List.of("€{p}", "{p} euros", "EUR {p}");

    static final Pool TUNING = new Pool("tuning",
            List.of(
                    new Category(Activity.WALK, "guided walk", List.of("guided walk", "stroll with a local guide"),
                            List.of("wander through lantern-lit lanes", "peek into hidden courtyards",
                                    "hear tales of merchants and smugglers", "stop at a quiet chapel",
                                    "cross the old stone bridge"),
                            List.of("Lantern Lanes", "Merchant Quarter", "Hidden Courtyards", "Old Town Secrets"),
                            List.of("Walk", "Stroll", "Ramble")),
                    new Category(Activity.BOAT, "boat trip", List.of("boat trip", "harbour cruise"),
                            List.of("watch seals on the sandbanks", "glide past the lighthouse",
                                    "feel the sea breeze on deck", "spot herons along the estuary",
                                    "see the harbour from the water"),
                            List.of("Seal Spotter", "Harbour Lights", "Estuary Drift", "Lighthouse Loop"),
                            List.of("Cruise", "Sailing", "Boat Trip")),
                    new Category(Activity.FOOD, "food tour", List.of("food tour", "tasting walk"),
                            List.of("sample smoked cheeses at the market", "taste fresh bread from a bakery oven",
                                    "try street snacks with a local cook", "sip cider in a family cellar",
                                    "meet the fishmongers at the quay"),
                            List.of("Market Bites", "Cheese and Cider", "Street Kitchen", "Bakers Row"),
                            List.of("Food Tour", "Tasting", "Supper Trail")),
                    new Category(Activity.CYCLE, "cycling tour", List.of("cycling tour", "guided bike outing"),
                            List.of("pedal along the canal towpath", "freewheel between orchards",
                                    "ride past windmills and dykes", "follow quiet farm lanes",
                                    "pause at a village green"),
                            List.of("Canal Spin", "Orchard Loop", "Windmill Way", "Towpath Pedal"),
                            List.of("Bike Tour", "Cycle", "Ride")),
                    new Category(Activity.MUSEUM, "museum visit", List.of("museum visit", "curated gallery visit"),
                            List.of("admire tapestries in the great hall", "see a reconstructed printing press",
                                    "handle replica coins from the mint", "explore the maritime collection",
                                    "study portraits of the founding families"),
                            List.of("Mint and Press", "Tapestry Hall", "Maritime Collection", "Founders Gallery"),
                            List.of("Museum Visit", "Curator Session", "Collection Visit")),
                    new Category(Activity.HIKE, "day hike", List.of("day hike", "guided hill walk"),
                            List.of("climb to a windswept ridge", "picnic beside a moorland tarn",
                                    "follow a drovers' track over the heather", "look out over the valley",
                                    "cross stepping stones on a beck",
                                    "look out from the \"Giant's Chair\" viewpoint"),
                            List.of("Heather Ridge", "Drovers Track", "Tarn and Crag", "Moorland Edge"),
                            List.of("Hike", "Upland Day", "Ridge Walk"))),
            List.of(new City("Port Avren", "Saltreach Coast"), new City("Kellsby", "Saltreach Coast"),
                    new City("Marrowick", "Saltreach Coast"), new City("Dunhallow", "Varrow Valley"),
                    new City("Fenwright", "Varrow Valley"), new City("Tollbridge", "Varrow Valley"),
                    new City("Quenby", "Eastmere Lowlands"), new City("Wendlebury", "Eastmere Lowlands"),
                    new City("Carrowmore", "Brannoch Hills"), new City("Stanegate", "Brannoch Hills"),
                    new City("Rookhope", "Hollin Moors National Park"),
                    new City("Glenwhistle", "Hollin Moors National Park")),
            "Hollin Moors National Park",
            List.of("{name} is {a_noun} in {city}, in the heart of {region}.",
                    "Discover {city} on {name}, {a_noun} that lets you {hl3}.",
                    "{name} offers {a_noun} around {city} for curious travellers.",
                    "Set in {city}, {name} is {a_noun} with plenty to see."),
            List.of("{name} is {a_noun} that starts {dist} from the centre of {city}.",
                    "Starting {dist} from central {city}, {name} is {a_noun} in {region}."),
            List.of("The meeting point lies {dist} from the centre of {city}.",
                    "You will find the start {dist} outside central {city}.",
                    "Getting there is easy: the start is {dist} from the town centre of {city}."),
            List.of("The outing lasts {dur} and is run for {group}.",
                    "Plan on {dur} in total, with places for {group}.",
                    "Allow {dur}; each departure takes {group}."),
            List.of("Past guests rate it {rating}, and a ticket costs {price} per person.",
                    "At {price} per person, it holds an average of {rating} from earlier visitors.",
                    "Tickets are {price} each, and reviewers give it {rating}."),
            List.of("Along the way you will {hl}.",
                    "Highlights include the chance to {hl} and {hl2}.",
                    "Your guide shares stories while you {hl}.",
                    "It is a relaxed way to {hl} without rushing."),
            List.of(new Practical("schedule", true, "Departures run every day of the week."),
                    new Practical("schedule", true, "It runs daily throughout the season."),
                    new Practical("schedule", false, "There are no departures on Mondays."),
                    new Practical("schedule", false, "Please note that it does not run on Mondays."),
                    new Practical("access", true, "The whole route is step-free and wheelchair accessible."),
                    new Practical("access", true, "Wheelchair users can join without difficulty."),
                    new Practical("access", false, "The route is not suitable for wheelchairs."),
                    new Practical("access", false, "Steep steps make it unsuitable for wheelchair users."),
                    new Practical("children", true, "Children of all ages are welcome."),
                    new Practical("children", true, "Families with young children are very welcome."),
                    new Practical("children", false, "This outing is for adults only."),
                    new Practical("children", false, "Children cannot take part."),
                    new Practical("pets", true, "Well-behaved dogs are welcome to come along."),
                    new Practical("pets", true, "Dogs on a lead may join."),
                    new Practical("pets", false, "Dogs cannot be brought along."),
                    new Practical("pets", false, "Please leave pets at home.")),
            List.of(new Forbidden("guaranteed", "guaranteed", "Clear skies and good company are guaranteed on every departure."),
                    new Forbidden("guaranteed", "Guaranteed", "Guaranteed smiles for the whole party from start to finish."),
                    new Forbidden("guaranteed", "GUARANTEED", "Great photos are GUARANTEED."),
                    new Forbidden("guaranteed", "guarantees", "The team guarantees a day you will talk about for years."),
                    new Forbidden("once-in-a-lifetime", "once-in-a-lifetime", "It is a once-in-a-lifetime way to see {city}."),
                    new Forbidden("once-in-a-lifetime", "Once-in-a-lifetime", "Once-in-a-lifetime views open up around every corner."),
                    new Forbidden("once-in-a-lifetime", "once in a lifetime", "Moments like these come once in a lifetime."),
                    new Forbidden("best in the world", "best in the world", "Many visitors call the scenery the best in the world."),
                    new Forbidden("best in the world", "Best in the World", "Locals say the guides here are the Best in the World."),
                    new Forbidden("life-changing", "life-changing", "Guests often describe the experience as life-changing."),
                    new Forbidden("life-changing", "Life-changing", "Life-changing scenery waits at the end of the route.")),
            List.of("If you have a spare evening, the night market in {ocity} is worth the trip.",
                    "Visitors heading on to {ocity} should try its famous smoked fish.",
                    "{ocity} also has a lovely botanical garden near its station.",
                    "Many travellers combine this with a weekend in {ocity}."),
            List.of(new Passage("T-BP1", List.of(
                            List.of("Booking is quick and confirmation arrives straight away.",
                                    "Reserving takes a moment, and you are confirmed at once.",
                                    "You can book in seconds and get instant confirmation.",
                                    "The booking process is fast, with confirmation sent immediately."),
                            List.of("Free cancellation is available until the day before.",
                                    "You may cancel at no cost up to the previous day.",
                                    "Plans change, so cancelling is free until the day prior.",
                                    "Cancel without charge as late as the day before you go."))),
                    new Passage("T-BP2", List.of(
                            List.of("Our friendly team has welcomed travellers from all over.",
                                    "Travellers from many countries have been hosted by our friendly crew.",
                                    "Our welcoming staff have looked after visitors from near and far.",
                                    "Guests from far and wide have enjoyed the hospitality of our team."),
                            List.of("We look forward to showing you around.",
                                    "We cannot wait to show you the sights.",
                                    "It would be a pleasure to be your hosts.",
                                    "We are excited to guide you soon."))),
                    new Passage("T-BP3", List.of(
                            List.of("Comfortable shoes and a bottle of water are recommended.",
                                    "Bring sturdy footwear and something to drink.",
                                    "Wear shoes you can walk in and carry water.",
                                    "Good shoes and a water bottle will serve you well."),
                            List.of("Your guide will meet you with a bright flag.",
                                    "Look for the guide holding a colourful flag.",
                                    "A guide with a bright flag will greet you.",
                                    "Spot the colourful flag: that is your guide."))),
                    new Passage("T-BP4", List.of(
                            List.of("All our guides are licensed and speak fluent English.",
                                    "Every guide on our team is licensed and fluent in English.",
                                    "Licensed, English-speaking guides lead each group.",
                                    "Each group is led by a licensed guide with excellent English."),
                            List.of("Small touches make each outing feel personal.",
                                    "Little extras make every trip feel special.",
                                    "Thoughtful details turn each trip into something personal.",
                                    "Personal touches set every outing apart.")))),
            List.of("", "A park permit may be needed.", "Park rules apply to this activity."),
            List.of("${p}", "{p} dollars", "USD {p}"),
            new Styles(List.of("{n} stars", "{w} stars", "{n} out of 5 stars"),
                    List.of("{n} km", "{w} kilometres"),
                    List.of("{n} miles"),
                    List.of("up to {n} guests", "groups of {w}", "a maximum of {n} people"),
                    List.of("{n} hours", "{w} hours", "{min} minutes")),
            List.of("Your ticket arrives by email, so there is nothing to print.",
                    "Prices include all local taxes and booking fees.",
                    "Customer support is on hand by chat and phone around the clock.",
                    "Gift vouchers for this experience are available at checkout.",
                    "Free Wi-Fi is offered at the booking office."));

    static final Pool HELD_OUT = new Pool("held-out",
            List.of(
                    new Category(Activity.WALK, "walking tour", List.of("walking tour", "neighbourhood ramble on foot"),
                            List.of("trace the route of the medieval walls", "duck under arcaded passages",
                                    "learn why the weavers rioted", "look up at carved gargoyles",
                                    "find a tucked-away almshouse"),
                            List.of("Weavers Riot", "Gargoyle Hunt", "Arcade Passages", "Medieval Walls"),
                            List.of("Wander", "Heritage Circuit", "Footsteps")),
                    new Category(Activity.BOAT, "river cruise", List.of("river cruise", "trip by narrowboat"),
                            List.of("drift beneath willow-lined banks", "pass through a working lock",
                                    "spy kingfishers darting over the reeds", "float by grand riverside villas",
                                    "watch rowers practise at dawn"),
                            List.of("Kingfisher", "Willow Reach", "Lock Keeper", "Riverside Villas"),
                            List.of("Voyage", "Narrowboat Outing", "Waterway Jaunt")),
                    new Category(Activity.FOOD, "tasting trail", List.of("tasting trail", "culinary crawl"),
                            List.of("nibble cured hams in a delicatessen", "learn how chocolatiers temper cocoa",
                                    "share a board of pickles and rye", "taste honey straight from the comb",
                                    "discover a brewery in an old tannery"),
                            List.of("Cocoa and Rye", "Deli Counter", "Honeycomb", "Tannery Brew"),
                            List.of("Culinary Crawl", "Gourmet Hop", "Flavour Circuit")),
                    new Category(Activity.CYCLE, "bike ride", List.of("bike ride", "e-bike excursion"),
                            List.of("roll along a disused railway line", "coast down to a fishing hamlet",
                                    "weave among vineyards on gravel", "circle a reed-fringed lake",
                                    "climb gently to a hilltop chapel"),
                            List.of("Railway Line", "Vineyard Gravel", "Reed Lake", "Fishing Hamlet"),
                            List.of("Pedelec Outing", "Two Wheels", "Saddle Jaunt")),
                    new Category(Activity.MUSEUM, "gallery tour", List.of("gallery tour", "exhibition walkthrough"),
                            List.of("stand before towering abstract canvases", "peer at illuminated manuscripts",
                                    "try a hands-on pottery station", "trace the story of the local glassworks",
                                    "see sketches the painters never finished",
                                    "stand before the \"Weeping Madonna\" altarpiece"),
                            List.of("Glassworks Story", "Manuscript Room", "Canvas and Clay", "Unfinished Sketches"),
                            List.of("Exhibition Circuit", "Art Walkthrough", "Salon Viewing")),
                    new Category(Activity.HIKE, "mountain trek", List.of("mountain trek", "summit excursion"),
                            List.of("scramble up to a granite summit", "rest by a glacial waterfall",
                                    "traverse an alpine meadow full of gentians", "gaze across jagged peaks",
                                    "descend through ancient pine forest"),
                            List.of("Granite Summit", "Gentian Meadow", "Pine Descent", "Glacier Falls"),
                            List.of("Trek", "Alpine Expedition", "Mountain Outing"))),
            List.of(new City("Selmouth", "Ondwick Shore"), new City("Bravenport", "Ondwick Shore"),
                    new City("Trennick", "Ondwick Shore"), new City("Yarrowby", "Telvar Basin"),
                    new City("Mistlecombe", "Telvar Basin"), new City("Orrinford", "Telvar Basin"),
                    new City("Penhallion", "Quarrow Downs"), new City("Wistmoor", "Quarrow Downs"),
                    new City("Ebbridge", "Ashgrove Plain"), new City("Corrington", "Ashgrove Plain"),
                    new City("Skarrow", "Castra Fells National Park"),
                    new City("Ullswick", "Castra Fells National Park")),
            "Castra Fells National Park",
            List.of("Join {name} and see {city} from a fresh angle on {a_noun}.",
                    "{city} comes alive on {name}, {a_noun} through {region}.",
                    "For {a_noun} in {region}, {name} is a favourite pick in {city}.",
                    "With {name}, {a_noun} shows you a quieter side of {city}."),
            List.of("{name} begins {dist} out of downtown {city} and takes you on {a_noun}.",
                    "Just {dist} beyond downtown {city}, {name} sets off on {a_noun}."),
            List.of("Its starting point sits {dist} away from downtown {city}.",
                    "Expect to travel {dist} outward from the core of {city} to reach the start.",
                    "Head {dist} out of the middle of {city} to find the meeting spot."),
            List.of("Set aside {dur}, with {group}.",
                    "Running for {dur}, every session goes ahead with {group}.",
                    "Sessions go on for {dur} with {group}."),
            List.of("Reviewers score this outing {rating}; the fee is {price} a head.",
                    "Expect to pay {price} a head for an outing rated {rating}.",
                    "It currently sits at {rating} in guest reviews, priced at {price} for each participant."),
            List.of("You get to {hl} at an easy pace.",
                    "Expect to {hl}, then {hl2}.",
                    "The route allows you to {hl} with a resident at your side.",
                    "There is time to {hl} before heading back."),
            List.of(new Practical("schedule", true, "Sessions take place every single day."),
                    new Practical("schedule", true, "You can book it on any day, weekends included."),
                    new Practical("schedule", false, "Mondays are a rest day for the crew, with no sessions."),
                    new Practical("schedule", false, "It is closed on Mondays."),
                    new Practical("access", true, "Ramps and level paths make it fully accessible by wheelchair."),
                    new Practical("access", true, "It suits participants who use a wheelchair."),
                    new Practical("access", false, "Wheelchairs cannot manage the terrain."),
                    new Practical("access", false, "It is not accessible by wheelchair."),
                    new Practical("children", true, "Younger explorers are warmly invited."),
                    new Practical("children", true, "A great pick for families, kids included."),
                    new Practical("children", false, "Participants must be adults."),
                    new Practical("children", false, "It is not open to children."),
                    new Practical("pets", true, "Dogs are happy to tag along."),
                    new Practical("pets", true, "Your dog is invited too."),
                    new Practical("pets", false, "No dogs are allowed."),
                    new Practical("pets", false, "Pets have to stay behind.")),
            List.of(new Forbidden("guaranteed", "Guarantee", "Guarantee yourself the finest afternoon of the season."),
                    new Forbidden("guaranteed", "guaranteeing", "We take pride in guaranteeing a perfect outing."),
                    new Forbidden("guaranteed", "guarantee", "There is a full satisfaction guarantee."),
                    new Forbidden("once-in-a-lifetime", "ONCE-IN-A-LIFETIME", "A truly ONCE-IN-A-LIFETIME outing."),
                    new Forbidden("once-in-a-lifetime", "once-in-a-lifetime", "Treat yourself to a once-in-a-lifetime memory."),
                    new Forbidden("best in the world", "best in the world", "The panorama from the top is simply the best in the world."),
                    new Forbidden("best in the world", "BEST IN THE WORLD", "Our crew is, quite honestly, the BEST IN THE WORLD."),
                    new Forbidden("life-changing", "life changing", "Past visitors have called it life changing."),
                    new Forbidden("life-changing", "Life-Changing", "Prepare for a Life-Changing afternoon.")),
            List.of("Do not leave the area without a stop at the cathedral in {ocity}.",
                    "The spa hotels of {ocity} make a pleasant place to unwind afterwards.",
                    "{ocity} hosts a lively jazz festival each summer.",
                    "Rail connections to {ocity} leave from the main square."),
            List.of(new Passage("H-BP1", List.of(
                            List.of("Payment is taken securely when you reserve.",
                                    "You pay safely online at the moment of reservation.",
                                    "Your card is charged through an encrypted checkout when you reserve.",
                                    "We collect payment via a protected checkout as you reserve."),
                            List.of("Refunds reach your account within days.",
                                    "Any refund lands back with you promptly.",
                                    "Money comes back to you quickly if a refund is due.",
                                    "Should a refund apply, it is processed without delay."))),
                    new Passage("H-BP2", List.of(
                            List.of("We care deeply about treading lightly on the land.",
                                    "Protecting the places we visit matters enormously to us.",
                                    "Looking after the landscape is at the core of what we do.",
                                    "Respect for nature guides every decision we make."),
                            List.of("A share of each booking supports local conservation.",
                                    "Part of your fee funds conservation projects nearby.",
                                    "Some of what you pay goes to regional conservation work.",
                                    "Each reservation helps fund the work of local conservation groups."))),
                    new Passage("H-BP3", List.of(
                            List.of("Photos taken by the crew are shared with you afterwards.",
                                    "After the outing, the crew sends you their photos.",
                                    "You receive the pictures our crew snapped once it is over.",
                                    "Our crew passes on the snapshots they took when you are back home."),
                            List.of("Feel free to tag us when you post them.",
                                    "Do tag us if you put them online.",
                                    "Mention us when you share them on social media.",
                                    "We love being tagged when you upload them."))),
                    new Passage("H-BP4", List.of(
                            List.of("Insurance for participants is arranged by the operator.",
                                    "The operator takes care of insurance for everyone taking part.",
                                    "Cover for all participants is organised by the operator.",
                                    "Everyone taking part is insured through the operator."),
                            List.of("Just bring your curiosity and a smile.",
                                    "All you need is curiosity and good humour.",
                                    "Simply show up curious and cheerful.",
                                    "Come along with an open mind and a grin.")))),
            List.of("", "Check the permit rules of the park in advance.", "Permits are handled by the park office."),
            List.of("£{p}", "{p} pounds", "GBP {p}"),
            new Styles(List.of("{w} stars out of five", "{n}/5", "{w} out of five"),
                    List.of("{n} kilometres", "{w} km"),
                    List.of("{n} mi"),
                    List.of("no more than {w} participants", "{n} participants at most", "parties of up to {w}"),
                    List.of("a good {w} hours", "{n} hrs", "{min} mins")),
            List.of("A digital pass is issued after payment and works offline.",
                    "Every fare shown already includes taxes and service charges.",
                    "Our travel desk answers every message quickly.",
                    "Vouchers can be passed on to friends as a present.",
                    "Reviews on this page come only from verified guests."));
}
