package dev.santabatch.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.santabatch.eval.SampleCatalogGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.io.Reader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * A scripted OpenAI-compatible model server on 127.0.0.1 for whole-job tests and benchmarks:
 * {@code POST /v1/chat/completions} answered like a competent model that knows a catalog's planted
 * defects. It reads every request as a model would, from the prompt: the text between
 * {@code <content>} and {@code </content>}, the facts in {@code <source>}, the criteria in the
 * request's JSON schema (or the prompt).
 *
 * <ul>
 *   <li>Review calls (the reviewer system prompt): FAIL the criterion of every planted defect
 *       whose marker text the content carries, with a critical issue worded in one of several
 *       paraphrases per defect kind (the wording depends on the model and the text, so two reviewers
 *       usually word one problem differently); PASS otherwise. Valid review JSON for exactly the
 *       criteria the request asks for.
 *   <li>Fix calls (the fixer system prompt): the content with every planted defect corrected (a
 *       drifted sentence removed, a boilerplate passage or a drifted whole text replaced by a sentence
 *       about the item from its source facts).
 *   <li>Matcher calls: {@code shows_pattern} true when the content carries a defect of the problem's
 *       criterion, with the corrected text.
 * </ul>
 *
 * Every request is counted when its handler is handed it and recorded with its arrival time and the fault it got
 * (a request whose body cannot be read, its client gone, is recorded too; see {@link #calls()}). Faults are injected per
 * call by rules ({@link #inject}): HTTP statuses with headers (429 with {@code Retry-After}, 500,
 * 401), a response held past the client's timeout, malformed JSON, a review missing a criterion, a
 * PASS with critical issues; {@link #outage(boolean)} makes the whole endpoint answer 503.
 * {@link #delay(Duration)} holds every answer (the benchmark's fixed 200 ms). {@link #drawFaults}
 * draws a fault per call from (item, revision, role, attempt) at given rates instead (the fault
 * soak); {@link #answers()} records what each call was answered, a review's verdict included.
 *
 * <p>In judge mode ({@link #start(RealisticJudges)}) the reviews, fixes and matches are the
 * {@link RealisticJudges}' instead: imperfect judges driven by the catalog's planted defects. The
 * faults work the same in both modes; {@link #callCounts()} counts the calls per kind and model.
 */
public final class CatalogModelServer implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    public static final String ON_SPEC = "on-specification";
    public static final String ORIGINAL = "original";

    /** What a call asks for, told by its system prompt. */
    public enum Kind {
        REVIEW,
        FIX,
        MATCH,
        OTHER
    }

    /**
     * A planted defect the model "sees": content carrying {@code marker} fails {@code criterion}.
     *
     * @param kind the truth file's kind (drift-sentence, drift-text, boilerplate)
     * @param itemId the item it was planted in
     */
    public record Defect(String itemId, String kind, String criterion, String marker) {}

    /** One recorded request. */
    public record Call(int seq, Kind kind, long arrivalNanos, Map<String, List<String>> headers, String body,
            JsonNode json, String system, String user, String content, Map<String, String> source,
            List<String> criteria, String model, String fault) {

        /** The roles of the request's messages, in order. */
        public List<String> roles() {
            List<String> roles = new ArrayList<>();
            json.path("messages").forEach(m -> roles.add(m.path("role").asText()));
            return roles;
        }
    }

    /** What an injected fault does to a call. */
    public sealed interface Fault {
        /** An HTTP error status with headers (e.g. 429 with Retry-After, 500, 401). */
        record Status(int code, Map<String, String> headers, String body) implements Fault {}

        /** The answer held for this long before it is sent (past the client's timeout, it is never read). */
        record Hang(Duration hold) implements Fault {}

        /** 200 with text that is not JSON where JSON was asked for. */
        record MalformedJson() implements Fault {}

        /** A review with one of the asked criteria left out. */
        record MissingCriterion() implements Fault {}

        /** A review that says PASS and still lists a critical issue. */
        record PassWithCritical() implements Fault {}

        /** A review in the right shape whose verdict is neither PASS nor FAIL. */
        record UnknownVerdict() implements Fault {}

        /**
         * A correct review in the seed's exact shape: its critical issues are free text, without the
         * {@code <criterion-id>:} prefix the prompt asks for.
         */
        record SeedShape() implements Fault {}

        /** A review whose checks all PASS, verdict PASS, with one unprefixed critical issue ("subtle problem"). */
        record PassWithUnprefixedIssue() implements Fault {}

        /** A review that says FAIL while every check says PASS (the critical issues, if any, kept). */
        record FailWithoutFailedCheck() implements Fault {}

        static Fault status(int code, Map<String, String> headers) {
            return new Status(code, headers, "{\"error\":{\"message\":\"scripted " + code + "\",\"type\":\"test\",\"code\":\"scripted\"}}");
        }
    }

    private record Rule(Predicate<Call> when, AtomicInteger remaining, Fault fault) {}

    /**
     * One answer the server gave (or began to give) to a call: its HTTP status, for a review the
     * verdict it wrote, the fault it injected ({@code ""} for none) and the call's attempt number at
     * its {@link #attemptKey key} (1 for the first time the server saw that key).
     */
    public record Answer(int seq, Kind kind, String model, String content, int status, String verdict, String fault,
            int attempt) {

        /** A fault-free review answer that says FAIL: the model judged this exact text to fail. */
        public boolean faultFreeFail() {
            return kind == Kind.REVIEW && status == 200 && fault.isEmpty() && "FAIL".equals(verdict);
        }
    }

    /**
     * Faults drawn per call, deterministically from ({@code seed}, the call's {@link #attemptKey key},
     * its attempt number at that key), not from the order calls arrive in: the same item, revision,
     * role and attempt always get the same fault, whatever the timing. Each rate is a share of all
     * calls; a review-only fault (missing criterion, contradiction) drawn for a fix or match call is
     * no fault, and garbage is malformed JSON for reviews and matches and an empty text for fixes.
     * A contradiction is a PASS with a critical issue, half of them prefixed with their criterion, half not.
     *
     * @param hang the share of answers held for {@code hangFor}
     * @param retryAfterSeconds the {@code Retry-After} of a 429
     * @param hangFor how long a hung answer is held (past the client's timeout)
     */
    public record FaultRates(long seed, double rate429, double rate5xx, double hang, double garbage, double missingCriterion,
            double contradiction, int retryAfterSeconds, Duration hangFor) {

        /** The fault for attempt {@code attempt} of a call with this key, or null. */
        public Fault draw(Kind kind, String key, int attempt) {
            double u = unit(seed, key, attempt, 0);
            double edge = rate429;
            if (u < edge) {
                return Fault.status(429, Map.of("Retry-After", Integer.toString(retryAfterSeconds)));
            }
            if (u < (edge += rate5xx)) {
                int[] codes = {500, 502, 503};
                return Fault.status(codes[(int) Math.floor(unit(seed, key, attempt, 1) * codes.length)], Map.of());
            }
            if (u < (edge += hang)) {
                return new Fault.Hang(hangFor);
            }
            if (u < (edge += garbage)) {
                return new Fault.MalformedJson();
            }
            if (u < (edge += missingCriterion)) {
                return kind == Kind.REVIEW ? new Fault.MissingCriterion() : null;
            }
            if (u < (edge += contradiction)) {
                if (kind != Kind.REVIEW) {
                    return null;
                }
                // PASS with a critical issue, prefixed or not: what the contract calls a contradiction
                return unit(seed, key, attempt, 2) < 0.5 ? new Fault.PassWithCritical() : new Fault.PassWithUnprefixedIssue();
            }
            return null;
        }

        /** A uniform draw in [0, 1) from the seed, the key, the attempt and a stream number. */
        static double unit(long seed, String key, int attempt, int stream) {
            long h = seed * 0x9E3779B97F4A7C15L;
            for (byte b : key.getBytes(StandardCharsets.UTF_8)) {
                h = (h ^ (b & 0xff)) * 0x100000001B3L;
            }
            h ^= attempt * 0xC2B2AE3D27D4EB4FL + stream * 0x165667B19E3779F9L;
            // splitmix64 finaliser
            h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
            h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
            h ^= h >>> 31;
            return (h >>> 11) * 0x1.0p-53;
        }
    }

    /**
     * The key calls are counted by for drawn faults: the item (its source facts), the revision (the
     * content text), the role (the call's kind and model).
     */
    public static String attemptKey(Call c) {
        return c.kind() + "\n" + c.model() + "\n" + c.source() + "\n" + c.content();
    }

    /**
     * Rephrasings of one problem per defect kind; all-MiniLM-L6-v2 cosines of their stripped texts
     * are 0.63-0.86 within a kind (measured), above the default {@code santa.pattern-similarity}
     * 0.45, so a classifier that groups by meaning puts them in one pattern.
     */
    static final Map<String, List<String>> PARAPHRASES = Map.of(
            SampleCatalogGenerator.DRIFT_SENTENCE, List.of(
                    "one sentence is about something other than this product",
                    "a sentence is off topic and not about this product",
                    "one sentence talks about something unrelated to the product",
                    "a sentence here is not about this product at all"),
            SampleCatalogGenerator.DRIFT_TEXT, List.of(
                    "the whole description is about something other than this product",
                    "the entire description is not about this product at all",
                    "the description as a whole is unrelated to the product"),
            SampleCatalogGenerator.BOILERPLATE, List.of(
                    "the text is generic boilerplate shared with other listings",
                    "generic boilerplate text that is copied from other listings",
                    "this passage is boilerplate reused in other listings"));

    /** The start of the fault of a call received whose body could not be read (its client gave up). */
    public static final String UNREAD_PREFIX = "Unread[";

    private static final Pattern CONTENT = Pattern.compile("<content>\\n(.*?)\\n</content>", Pattern.DOTALL);
    private static final Pattern SOURCE = Pattern.compile("<source>\\n(.*?)</source>", Pattern.DOTALL);
    private static final Pattern JUDGE = Pattern.compile("judge every one of (.*?), with exactly one check");
    private static final Pattern PROBLEM_CRITERION = Pattern.compile("## The Problem\\nCriterion (\\S+), as a reviewer flagged it");
    private static final Pattern FAIL_SIGNAL =
            Pattern.compile("- criterion id: (\\S+)\\n  name: .*\\n  pass condition: .*\\n  failure signal: (.*)\\n");
    private static final Pattern ISSUES = Pattern.compile("<issues>\\n(.*?)\\n</issues>", Pattern.DOTALL);

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "model-stub");
        t.setDaemon(true);
        return t;
    });
    private final List<Defect> defects;
    private volatile RealisticJudges judges;
    private final List<Call> calls = Collections.synchronizedList(new ArrayList<>());
    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    private final List<Answer> answers = Collections.synchronizedList(new ArrayList<>());
    private final Map<String, AtomicInteger> attempts = new java.util.concurrent.ConcurrentHashMap<>();
    private volatile FaultRates drawn;
    private final AtomicInteger seq = new AtomicInteger();
    /** When each request's answer was written out in full ({@link System#nanoTime()}), by seq. */
    private final Map<Integer, Long> sentNanos = new java.util.concurrent.ConcurrentHashMap<>();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final AtomicInteger awaiting = new AtomicInteger();
    private final AtomicInteger maxAwaiting = new AtomicInteger();
    private final AtomicBoolean outage = new AtomicBoolean();
    private final java.util.concurrent.atomic.AtomicLong lastAnswerNanos = new java.util.concurrent.atomic.AtomicLong();
    private volatile Duration delay = Duration.ZERO;

    private CatalogModelServer(List<Defect> defects, RealisticJudges judges) throws IOException {
        this.defects = List.copyOf(defects);
        this.judges = judges;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
        server.createContext("/v1/chat/completions", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    /** A server that knows these defects. */
    public static CatalogModelServer start(List<Defect> defects) throws IOException {
        return new CatalogModelServer(defects, null);
    }

    /** A server whose reviews, fixes and matches are these judges' (judge mode). */
    public static CatalogModelServer start(RealisticJudges judges) throws IOException {
        return new CatalogModelServer(List.of(), judges);
    }

    /**
     * The defects of the reviewers' kinds in a ground-truth file of {@link SampleCatalogGenerator}:
     * a drifted sentence, a drifted whole text (on-specification), a boilerplate passage (original).
     */
    public static List<Defect> reviewerDefects(Path truthCsv) throws IOException {
        List<Defect> out = new ArrayList<>();
        try (Reader in = Files.newBufferedReader(truthCsv, StandardCharsets.UTF_8);
                var parser = CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true).get().parse(in)) {
            for (CSVRecord r : parser) {
                String kind = r.get("kind");
                String criterion = switch (kind) {
                    case SampleCatalogGenerator.DRIFT_SENTENCE, SampleCatalogGenerator.DRIFT_TEXT -> ON_SPEC;
                    case SampleCatalogGenerator.BOILERPLATE -> ORIGINAL;
                    default -> null;
                };
                if (criterion != null && !r.get("wrong").isBlank()) {
                    out.add(new Defect(r.get("id"), kind, criterion, r.get("wrong")));
                }
            }
        }
        return out;
    }

    /**
     * From now on these judges answer (judge mode only): a catalog that changed between two runs is
     * judged by its own judges at the same base URL, which a job's verification fingerprint names.
     */
    public CatalogModelServer judges(RealisticJudges next) {
        if (judges == null) {
            throw new IllegalStateException("not in judge mode");
        }
        this.judges = next;
        return this;
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    public List<Defect> defects() {
        return defects;
    }

    /** Every answer is held this long (the benchmark's fixed latency). */
    public CatalogModelServer delay(Duration d) {
        this.delay = d;
        return this;
    }

    /** The next {@code times} calls matching {@code when} get {@code fault} (rules are tried in order). */
    public CatalogModelServer inject(Predicate<Call> when, int times, Fault fault) {
        rules.add(new Rule(when, new AtomicInteger(times), fault));
        return this;
    }

    /**
     * Faults drawn per call by {@code rates} (after the {@link #inject} rules, which come first): see
     * {@link FaultRates}.
     */
    public CatalogModelServer drawFaults(FaultRates rates) {
        this.drawn = rates;
        return this;
    }

    /** While on, every call answers 503: the whole endpoint is down. */
    public CatalogModelServer outage(boolean down) {
        outage.set(down);
        return this;
    }

    /**
     * Every request the server received, in the order they were recorded: a request counts from the
     * moment its handler is handed it (its {@link Call#seq}), and is recorded once its body is read,
     * or, when the body cannot be read (the client gave up), as an {@link Kind#OTHER} call whose
     * fault starts with {@link #UNREAD_PREFIX}. A request being read is in {@link #received()} and
     * not yet here; {@link #settle} waits for it.
     */
    public List<Call> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    /** The requests received so far, recorded or still being read (the highest {@link Call#seq}). */
    public int received() {
        return seq.get();
    }

    /**
     * Waits until every request received is recorded in {@link #calls()} and none has arrived for
     * {@code quiet} (a starved handler may be handed a request its client sent long ago), for at
     * most {@code limit}; true when it settled.
     */
    public boolean settle(Duration quiet, Duration limit) throws InterruptedException {
        long end = System.nanoTime() + limit.toNanos();
        int last = received();
        long since = System.nanoTime();
        while (System.nanoTime() < end) {
            int now = received();
            if (now != last) {
                last = now;
                since = System.nanoTime();
            } else if (calls.size() >= now && System.nanoTime() - since >= quiet.toNanos()) {
                return true;
            }
            Thread.sleep(10);
        }
        return false;
    }

    public List<Call> calls(Kind kind) {
        return calls().stream().filter(c -> c.kind() == kind).toList();
    }

    /** The calls received (retries and faulted calls included) per kind, then per model. */
    public Map<Kind, Map<String, Long>> callCounts() {
        Map<Kind, Map<String, Long>> out = new java.util.EnumMap<>(Kind.class);
        for (Call c : calls()) {
            out.computeIfAbsent(c.kind(), k -> new java.util.TreeMap<>()).merge(c.model(), 1L, Long::sum);
        }
        return out;
    }

    /** When the last answer was sent (or given up), {@link System#nanoTime()}; 0 before any. */
    public long lastAnswerNanos() {
        return lastAnswerNanos.get();
    }

    public int maxInFlight() {
        return maxInFlight.get();
    }

    /** Requests being handled now (received, handler not ended). */
    public int inFlight() {
        return inFlight.get();
    }

    /** Requests received now whose answer has not started (see {@link #maxAwaitingAnswer()}). */
    public int awaitingAnswer() {
        return awaiting.get();
    }

    /**
     * When the 200 answer to request {@code seq} was written out in full ({@link System#nanoTime()}),
     * if it was: an answer written before a client's process died reached its socket, and may or
     * may not have been read.
     */
    public java.util.OptionalLong sentNanos(int seq) {
        Long t = sentNanos.get(seq);
        return t == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(t);
    }

    /** Every answer given or begun, in the order they were decided (one per recorded call whose body was read). */
    public List<Answer> answers() {
        synchronized (answers) {
            return List.copyOf(answers);
        }
    }

    /**
     * The most requests the server held at once between receiving one and starting its answer.
     * The client sent each and has had no byte of its answer, so (with no client timeouts) each
     * still holds its slot in the client's call governor: this is a lower bound of the client's
     * calls in flight at that moment. {@link #maxInFlight()} counts a request until its handler
     * ends, after the client may have read the answer and sent the next one, so it can overcount.
     */
    public int maxAwaitingAnswer() {
        return maxAwaiting.get();
    }

    /** The answer to a request starts: it no longer counts as awaiting (once per request). */
    private void answerStarts(boolean[] awaitingFlag) {
        if (awaitingFlag[0]) {
            awaitingFlag[0] = false;
            awaiting.decrementAndGet();
        }
    }

    /** The defects this content carries. */
    public List<Defect> defectsIn(String content) {
        List<Defect> found = new ArrayList<>();
        for (Defect d : defects) {
            if (content.contains(d.marker())) {
                found.add(d);
            }
        }
        return found;
    }

    /** The content with every planted defect corrected, as the scripted model writes it. */
    public String corrected(String content, Map<String, String> source) {
        String out = content;
        for (Defect d : defectsIn(content)) {
            String about = "The " + source.getOrDefault("name", "product") + " from " + source.getOrDefault("brand", "its maker")
                    + " is built for everyday " + source.getOrDefault("category", "use") + " needs.";
            out = switch (d.kind()) {
                case SampleCatalogGenerator.DRIFT_SENTENCE -> out.replace(d.marker(), "");
                default -> out.replace(d.marker(), about);
            };
        }
        out = out.replaceAll("[ \\t]{2,}", " ").strip();
        if ("supplements".equals(source.get("category")) && !out.contains(SampleCatalogGenerator.DISCLAIMER)) {
            out = out + " " + SampleCatalogGenerator.DISCLAIMER;
        }
        return out;
    }

    // ------------------------------------------------------------------ serving

    private void handle(HttpExchange exchange) throws IOException {
        // counted when accepted: the server handed this request to its handler, so it received it,
        // even when its client gives up (a timeout while the server is starved) before the body is read
        int no = seq.incrementAndGet();
        long arrival = System.nanoTime();
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        boolean[] awaitingFlag = {true};
        maxAwaiting.accumulateAndGet(awaiting.incrementAndGet(), Math::max);
        boolean recorded = false;
        try {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            JsonNode json = JSON.readTree(body);
            String system = "";
            String user = "";
            for (JsonNode m : json.path("messages")) {
                if (m.path("role").asText().equals("system")) {
                    system = m.path("content").asText();
                } else if (m.path("role").asText().equals("user")) {
                    user = m.path("content").asText();
                }
            }
            Kind kind = system.startsWith("You are an independent quality reviewer") ? Kind.REVIEW
                    : system.startsWith("You are an editor") ? Kind.FIX
                    : system.startsWith("You check one text for one known problem") ? Kind.MATCH
                    : Kind.OTHER;
            String content = group(CONTENT, user).orElse("").replace("&lt;", "<");
            Map<String, String> source = source(group(SOURCE, user).orElse(""));
            List<String> criteria = criteria(json, user);
            String model = json.path("model").asText();
            Call probe = new Call(no, kind, arrival, Map.copyOf(exchange.getRequestHeaders()), body, json,
                    system, user, content, source, criteria, model, "");
            int attempt = attempts.computeIfAbsent(attemptKey(probe), k -> new AtomicInteger()).incrementAndGet();
            Fault fault = outage.get() ? new Fault.Status(503, Map.of(), "{\"error\":{\"message\":\"down\"}}") : fault(probe);
            FaultRates rates = drawn;
            if (fault == null && rates != null && !outage.get()) {
                fault = rates.draw(kind, attemptKey(probe), attempt);
            }
            Call call = new Call(probe.seq(), kind, arrival, probe.headers(), body, json, system, user, content, source, criteria,
                    model, fault == null ? "" : fault.toString());
            calls.add(call);
            recorded = true;
            if (!delay.isZero()) {
                sleep(delay);
            }
            if (fault instanceof Fault.Status s) {
                answers.add(new Answer(call.seq(), kind, model, content, s.code(), "", call.fault(), attempt));
                answerStarts(awaitingFlag);
                send(exchange, s.code(), s.headers(), s.body());
                return;
            }
            String answer = switch (kind) {
                case REVIEW -> review(call, fault);
                case FIX -> fault instanceof Fault.MalformedJson ? ""
                        : judges != null ? judges.fix(model, content, source, issues(user)) : corrected(content, source);
                case MATCH -> match(call, fault);
                case OTHER -> "ok";
            };
            answers.add(new Answer(call.seq(), kind, model, content, 200, kind == Kind.REVIEW ? verdictOf(answer) : "",
                    call.fault(), attempt));
            if (fault instanceof Fault.Hang h) {
                sleep(h.hold());
            }
            String completion = completion(model, answer, body.length() / 4);
            answerStarts(awaitingFlag);
            send(exchange, 200, Map.of("Content-Type", "application/json"), completion);
            sentNanos.put(call.seq(), System.nanoTime());
        } catch (IOException | RuntimeException e) {
            // the client gave up (timeout) or sent something unreadable: nothing to answer, but a
            // request received and never read is still a call the server received
            if (!recorded) {
                calls.add(new Call(no, Kind.OTHER, arrival, Map.copyOf(exchange.getRequestHeaders()), "", JSON.createObjectNode(), "",
                        "", "", Map.of(), List.of(), "", UNREAD_PREFIX + e.getClass().getSimpleName() + "]"));
            }
        } finally {
            answerStarts(awaitingFlag);
            lastAnswerNanos.accumulateAndGet(System.nanoTime(), Math::max);
            inFlight.decrementAndGet();
            exchange.close();
        }
    }

    private Fault fault(Call call) {
        for (Rule r : rules) {
            if (r.when().test(call)) {
                int left = r.remaining().getAndUpdate(n -> n > 0 ? n - 1 : n);
                if (left > 0) {
                    return r.fault();
                }
            }
        }
        return null;
    }

    private String review(Call call, Fault fault) throws IOException {
        if (fault instanceof Fault.MalformedJson) {
            return "Sure! Here is my review: {verdict: PASS, checks: [";
        }
        Map<String, Failed> failed = judges != null ? judged(call) : planted(call);
        ObjectNode root = JSON.createObjectNode();
        ArrayNode checks = root.putArray("checks");
        ArrayNode critical = JSON.createArrayNode();
        boolean anyFailed = false;
        List<String> criteria = new ArrayList<>(call.criteria());
        if (fault instanceof Fault.MissingCriterion && !criteria.isEmpty()) {
            criteria.remove(criteria.size() - 1);
        }
        for (String c : criteria) {
            Failed hit = fault instanceof Fault.PassWithUnprefixedIssue ? null : failed.get(c);
            ObjectNode check = checks.addObject();
            check.put("criterion", c);
            check.put("result", hit == null ? "PASS" : "FAIL");
            check.put("detail", hit == null ? "no problem found" : hit.detail());
            if (hit != null) {
                for (String issue : hit.issues()) {
                    critical.add((fault instanceof Fault.SeedShape ? "" : c + ": ") + issue);
                }
            }
            anyFailed |= hit != null;
        }
        if (fault instanceof Fault.PassWithUnprefixedIssue) {
            root.put("verdict", "PASS");
            critical.add("subtle problem");
        } else if (fault instanceof Fault.PassWithCritical) {
            root.put("verdict", "PASS");
            if (critical.isEmpty()) {
                critical.add((criteria.isEmpty() ? ON_SPEC : criteria.get(0)) + ": the text might be too generic");
            }
        } else if (fault instanceof Fault.UnknownVerdict) {
            root.put("verdict", "UNSURE");
        } else if (fault instanceof Fault.FailWithoutFailedCheck) {
            root.put("verdict", "FAIL");
            for (JsonNode check : checks) {
                ((ObjectNode) check).put("result", "PASS");
                ((ObjectNode) check).put("detail", "no problem found");
            }
        } else {
            root.put("verdict", anyFailed ? "FAIL" : "PASS");
        }
        root.set("critical_issues", critical);
        root.putArray("suggestions");
        // reorder: verdict first, as models write it
        ObjectNode ordered = JSON.createObjectNode();
        ordered.set("verdict", root.get("verdict"));
        ordered.set("checks", root.get("checks"));
        ordered.set("critical_issues", root.get("critical_issues"));
        ordered.set("suggestions", root.get("suggestions"));
        return JSON.writeValueAsString(ordered);
    }

    /** A failed criterion of a review: its check's detail and its critical issues (without the criterion prefix). */
    private record Failed(String detail, List<String> issues) {}

    /** The criteria the planted defects this content carries fail, each worded by the model and the text. */
    private Map<String, Failed> planted(Call call) {
        Map<String, Failed> out = new LinkedHashMap<>();
        for (Defect d : defectsIn(call.content())) {
            out.computeIfAbsent(d.criterion(), c -> new Failed(wording(d, call), new ArrayList<>())).issues()
                    .add(wording(d, call) + quote(d));
        }
        return out;
    }

    /** The criteria the realistic judges fail, with their issues. */
    private Map<String, Failed> judged(Call call) {
        Map<String, String> signals = new LinkedHashMap<>();
        Matcher m = FAIL_SIGNAL.matcher(call.user());
        while (m.find()) {
            signals.put(m.group(1), m.group(2));
        }
        Map<String, Failed> out = new LinkedHashMap<>();
        judges.review(call.model(), call.content(), call.source(), call.criteria(), signals)
                .forEach((c, issues) -> out.put(c, new Failed(issues.get(0), issues)));
        return out;
    }

    /** The critical issues of a fix request, without their numbers. */
    private static List<String> issues(String user) {
        List<String> out = new ArrayList<>();
        for (String line : group(ISSUES, user).orElse("").split("\n")) {
            String issue = line.replaceFirst("^\\d+\\.\\s*", "").replace("&lt;", "<").strip();
            if (!issue.isEmpty()) {
                out.add(issue);
            }
        }
        return out;
    }

    /** The verdict field of a review answer, or "" when it is not a JSON object with one. */
    private static String verdictOf(String answer) {
        try {
            return JSON.readTree(answer).path("verdict").asText("");
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    private String match(Call call, Fault fault) throws IOException {
        if (fault instanceof Fault.MalformedJson) {
            return "yes it does";
        }
        String criterion = group(PROBLEM_CRITERION, call.user()).orElse("");
        String corrected;
        if (judges != null) {
            corrected = judges.match(call.model(), call.content(), call.source(), criterion);
        } else {
            boolean shows = defectsIn(call.content()).stream().anyMatch(d -> d.criterion().equals(criterion));
            corrected = shows ? corrected(call.content(), call.source()) : null;
        }
        Map<String, Object> answer = new LinkedHashMap<>();
        answer.put("shows_pattern", corrected != null);
        answer.put("corrected_text", corrected == null ? "" : corrected);
        return JSON.writeValueAsString(answer);
    }

    /** One of the kind's paraphrases, chosen by the model and the text. */
    private static String wording(Defect d, Call call) {
        List<String> options = PARAPHRASES.get(d.kind());
        int i = Math.floorMod(call.model().hashCode() * 31 + call.content().hashCode(), options.size());
        return options.get(i);
    }

    private static String quote(Defect d) {
        if (d.kind().equals(SampleCatalogGenerator.DRIFT_TEXT)) {
            return "";
        }
        String m = d.marker();
        int end = m.indexOf(". ");
        return ": \"" + (end > 0 ? m.substring(0, end + 1) : m) + "\"";
    }

    private static List<String> criteria(JsonNode json, String user) {
        JsonNode e = json.path("response_format").path("json_schema").path("schema").path("properties").path("checks")
                .path("items").path("properties").path("criterion").path("enum");
        List<String> out = new ArrayList<>();
        if (e.isArray()) {
            e.forEach(n -> out.add(n.asText()));
            return out;
        }
        group(JUDGE, user).ifPresent(s -> {
            for (String c : s.split(",")) {
                out.add(c.strip());
            }
        });
        return out;
    }

    private static Map<String, String> source(String block) {
        Map<String, String> out = new LinkedHashMap<>();
        for (String line : block.split("\n")) {
            int colon = line.indexOf(": ");
            if (colon > 0) {
                out.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 2).strip());
            }
        }
        return out;
    }

    private static Optional<String> group(Pattern p, String s) {
        Matcher m = p.matcher(s);
        return m.find() ? Optional.of(m.group(1)) : Optional.empty();
    }

    private static String completion(String model, String content, int promptTokens) throws IOException {
        int completionTokens = Math.max(1, content.length() / 4);
        return JSON.writeValueAsString(Map.of(
                "id", "chatcmpl-stub",
                "object", "chat.completion",
                "created", 1,
                "model", model,
                "choices", List.of(Map.of(
                        "index", 0,
                        "message", Map.of("role", "assistant", "content", content),
                        "finish_reason", "stop")),
                "usage", Map.of(
                        "prompt_tokens", promptTokens,
                        "completion_tokens", completionTokens,
                        "total_tokens", promptTokens + completionTokens)));
    }

    private static void send(HttpExchange exchange, int status, Map<String, String> headers, String body) throws IOException {
        headers.forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("stub stopped");
        }
    }

    @Override
    public void close() {
        server.stop(0);
        // only this server's own handler threads (never a thread of the job under test)
        executor.shutdownNow();
        try {
            executor.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
