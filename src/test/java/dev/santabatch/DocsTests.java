package dev.santabatch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's documents: README.md stays under 15 KB, and every relative link of README.md and
 * docs/*.md points to a file that exists and, with an {@code #anchor}, to a heading of it
 * (GitHub's slugs: lowercase, punctuation dropped, spaces to '-', "-1", "-2" for repeats).
 */
class DocsTests {

    static final long README_LIMIT_BYTES = 15 * 1024;

    private static final Pattern FENCE = Pattern.compile("(?m)^[ \\t]*(```|~~~).*?^[ \\t]*\\1[^\\n]*$", Pattern.DOTALL);
    private static final Pattern INLINE_CODE = Pattern.compile("`[^`\\n]*`");
    private static final Pattern LINK = Pattern.compile("\\[[^\\]\\n]*\\]\\(\\s*<?([^)\\s>]*)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
    private static final Pattern REFERENCE = Pattern.compile("(?m)^\\s{0,3}\\[[^\\]]+\\]:\\s*<?(\\S+?)>?(?:\\s+.*)?$");
    private static final Pattern HEADING = Pattern.compile("(?m)^\\s{0,3}#{1,6}\\s+(.*?)\\s*#*\\s*$");

    @Test
    void readmeStaysUnder15KB() throws IOException {
        long size = Files.size(Path.of("README.md"));
        assertThat(size).as("README.md is %d bytes; the limit is %d: move detail to docs/", size, README_LIMIT_BYTES)
                .isLessThan(README_LIMIT_BYTES);
    }

    @Test
    void everyRelativeLinkOfTheDocsResolves() throws IOException {
        List<Path> files = new ArrayList<>();
        files.add(Path.of("README.md"));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(files::add);
        }
        assertThat(brokenLinks(files)).isEmpty();
    }

    @Test
    void aLinkToAMissingFileOrAnchorIsReported(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.md"), """
                # Outputs and exit statuses (contract)
                ## The `store`: H2, PostgreSQL
                [ok](b.md#running-it-on-your-own-catalog) [ok](#the-store-h2-postgresql)
                [ok](#outputs-and-exit-statuses-contract) [ok](https://example.com/x.md) `[no](code.md)`
                [file](missing.md) [anchor](b.md#no-such-heading) [here](#nope)
                ```
                [in a fence](fenced.md)
                ```
                """);
        Files.writeString(dir.resolve("b.md"), "## Running it on your own catalog\n");
        assertThat(brokenLinks(List.of(dir.resolve("a.md")))).containsExactly(
                dir.resolve("a.md") + ": missing.md: no such file",
                dir.resolve("a.md") + ": b.md#no-such-heading: no heading 'no-such-heading' in " + dir.resolve("b.md"),
                dir.resolve("a.md") + ": #nope: no heading 'nope' in " + dir.resolve("a.md"));
    }

    static List<String> brokenLinks(List<Path> files) {
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path file : files) {
            String text = INLINE_CODE.matcher(FENCE.matcher(read(file)).replaceAll("")).replaceAll("");
            List<String> targets = new ArrayList<>();
            for (Pattern p : List.of(LINK, REFERENCE)) {
                Matcher m = p.matcher(text);
                while (m.find()) {
                    targets.add(m.group(1));
                }
            }
            for (String target : targets) {
                if (target.isEmpty() || target.matches("(?i)[a-z][a-z0-9+.-]*:.*")) {
                    continue; // http:, https:, mailto: ...
                }
                int hash = target.indexOf('#');
                String path = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? "" : target.substring(hash + 1);
                Path linked = path.isEmpty() ? file : file.toAbsolutePath().getParent().resolve(path).normalize();
                if (!Files.exists(linked)) {
                    broken.add(file + ": " + target + ": no such file");
                } else if (!anchor.isEmpty() && !anchors.computeIfAbsent(linked, DocsTests::headingSlugs).contains(anchor)) {
                    broken.add(file + ": " + target + ": no heading '" + anchor + "' in " + (path.isEmpty() ? file : linked));
                }
            }
        }
        return broken;
    }

    static Set<String> headingSlugs(Path file) {
        Set<String> slugs = new HashSet<>();
        if (!file.toString().endsWith(".md") || Files.isDirectory(file)) {
            return slugs;
        }
        Map<String, Integer> seen = new HashMap<>();
        Matcher m = HEADING.matcher(FENCE.matcher(read(file)).replaceAll(""));
        while (m.find()) {
            String slug = slug(m.group(1));
            int n = seen.merge(slug, 1, Integer::sum);
            slugs.add(n == 1 ? slug : slug + "-" + (n - 1));
        }
        return slugs;
    }

    /** GitHub's heading anchor: lowercase, everything but letters, digits, '_', '-' and spaces dropped, spaces to '-'. */
    static String slug(String heading) {
        String plain = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1"); // a link's text only
        return plain.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
