package dev.santabatch.model;

/** The role names under which the governor counts calls, tokens and cost. */
public final class LlmRoles {

    /** The fixer's role. */
    public static final String FIXER = "fixer";

    /** The pattern matcher's role. */
    public static final String MATCHER = "matcher";

    private LlmRoles() {}

    /** A reviewer's role: {@code reviewer:<id>}, e.g. {@code reviewer:B}. */
    public static String reviewer(String id) {
        return "reviewer:" + id;
    }
}
