package dev.santabatch.config;

import java.util.Locale;
import java.util.Optional;

/**
 * Units a grounded attribute can be stated in. Units of one {@link Family} convert into each other
 * through {@link #toBase}.
 *
 * <p>Every unit here is one the number-grounding rule finds in text (it has text forms there: a
 * unit the job file accepts but the rule could never find would check nothing). {@link #COUNT} is
 * a number of things (stars, guests, bedrooms), stated with a noun rather than a unit. Currency
 * amounts are not units: prices are out of scope of number grounding.
 */
public enum Unit {
    YEAR(Family.DURATION, 365.0 * 24),
    MONTH(Family.DURATION, 365.0 * 24 / 12),
    WEEK(Family.DURATION, 7.0 * 24),
    DAY(Family.DURATION, 24),
    HOUR(Family.DURATION, 1),
    MINUTE(Family.DURATION, 1.0 / 60),
    KILOGRAM(Family.MASS, 1000),
    GRAM(Family.MASS, 1),
    POUND(Family.MASS, 453.59237),
    OUNCE(Family.MASS, 28.349523125),
    LITRE(Family.VOLUME, 1000),
    MILLILITRE(Family.VOLUME, 1),
    KILOMETRE(Family.LENGTH, 1_000_000),
    METRE(Family.LENGTH, 1000),
    CENTIMETRE(Family.LENGTH, 10),
    MILLIMETRE(Family.LENGTH, 1),
    INCH(Family.LENGTH, 25.4),
    MILE(Family.LENGTH, 1_609_344),
    WATT(Family.POWER, 1),
    COUNT(Family.COUNT, 1);

    private final Family family;
    private final double toBase;

    Unit(Family family, double toBase) {
        this.family = family;
        this.toBase = toBase;
    }

    public Family family() {
        return family;
    }

    /** Multiply a value in this unit by this factor to get the family's base unit. */
    public double toBase() {
        return toBase;
    }

    /** The job-file spelling: lower case name, e.g. {@code year}. */
    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<Unit> ofKey(String key) {
        for (Unit u : values()) {
            if (u.key().equals(key)) {
                return Optional.of(u);
            }
        }
        return Optional.empty();
    }

    public enum Family {
        DURATION,
        MASS,
        VOLUME,
        LENGTH,
        POWER,
        COUNT
    }
}
