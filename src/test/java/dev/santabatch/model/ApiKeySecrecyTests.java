package dev.santabatch.model;

import dev.santabatch.review.llm.LlmFixer;
import dev.santabatch.review.llm.LlmReviewer;
import static dev.santabatch.model.LlmFixtures.ENV;
import static dev.santabatch.model.LlmFixtures.FAST;
import static dev.santabatch.model.LlmFixtures.IDS;
import static dev.santabatch.model.LlmFixtures.SECRET;
import static dev.santabatch.model.LlmFixtures.model;
import static dev.santabatch.model.LlmFixtures.request;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import dev.santabatch.model.ScriptedServer.Reply;
import dev.santabatch.review.ConfigurationException;
import dev.santabatch.review.FixOutcome;
import dev.santabatch.review.ReviewOutcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The API key's value never reaches a log line (request logging on) or an exception message. */
class ApiKeySecrecyTests {

    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final List<Logger> loggers = new ArrayList<>();
    private final List<Level> levels = new ArrayList<>();
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;

    @BeforeEach
    void captureLogs() {
        appender.start();
        for (String name : List.of(org.slf4j.Logger.ROOT_LOGGER_NAME, "dev.santabatch", "dev.langchain4j")) {
            Logger logger = (Logger) LoggerFactory.getLogger(name);
            loggers.add(logger);
            levels.add(logger.getLevel());
            logger.setLevel(Level.TRACE);
        }
        loggers.get(0).addAppender(appender);
        originalOut = System.out;
        originalErr = System.err;
        PrintStream tee = new PrintStream(captured, true, StandardCharsets.UTF_8);
        System.setOut(tee);
        System.setErr(tee);
    }

    @AfterEach
    void restore() {
        System.setOut(originalOut);
        System.setErr(originalErr);
        loggers.get(0).detachAppender(appender);
        for (int i = 0; i < loggers.size(); i++) {
            loggers.get(i).setLevel(levels.get(i));
        }
    }

    @Test
    void theKeyIsSentButNeverLoggedNorInAnyMessage() throws Exception {
        String echo = "{\"error\":{\"message\":\"bad key " + SECRET + " (Bearer " + SECRET + ")\"}}";
        try (ScriptedServer server = ScriptedServer.replying(
                Reply.status(500, echo, Map.of()),
                Reply.status(429, echo, Map.of("Retry-After", "0")),
                Reply.ok(LlmFixtures.passJson()),
                Reply.status(400, echo, Map.of()),
                Reply.status(503, echo, Map.of()),
                Reply.status(401, echo, Map.of()))) {
            CallGovernor governor = new CallGovernor(FAST.withLogRequests(true).withRetries(3, java.time.Duration.ofMillis(5), java.time.Duration.ofMillis(5)));
            LlmClient reviewerClient = LlmClient.create(model(server.baseUrl()), LlmRoles.reviewer("B"), governor, ENV);
            LlmReviewer reviewer = new LlmReviewer("B", Set.copyOf(IDS), reviewerClient);
            LlmFixer fixer = new LlmFixer(LlmClient.create(model(server.baseUrl()), LlmRoles.FIXER, governor, ENV));
            StringBuilder messages = new StringBuilder();

            // 500, 429, then a review
            ReviewOutcome reviewed = reviewer.review(request("A kettle."));
            assertThat(reviewed).isInstanceOf(ReviewOutcome.Reviewed.class);
            // 400: a failed fix
            FixOutcome rejected = fixer.fix(LlmFixtures.fixRequest("Old.", List.of("accuracy: x")));
            assertThat(rejected).isInstanceOf(FixOutcome.FailedToFix.class);
            messages.append(((FixOutcome.FailedToFix) rejected).message());
            // 503 then 401: a configuration error
            try {
                reviewer.review(request("A kettle."));
            } catch (ConfigurationException e) {
                messages.append(LlmFixturesText.allMessages(e));
            }
            messages.append(reviewerClient).append(governor.snapshot());

            // the key was sent
            assertThat(server.requests().get(0).headers().get("Authorization")).containsExactly("Bearer " + SECRET);
            // requests were logged, with the credential masked
            List<String> lines = logLines();
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("Authorization: ***"));
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("HTTP POST"));
            // and the key is nowhere
            assertThat(String.join("\n", lines)).doesNotContain(SECRET).doesNotContain("SECRET123");
            assertThat(captured.toString(StandardCharsets.UTF_8)).doesNotContain(SECRET);
            assertThat(messages.toString()).contains("authentication failed").doesNotContain(SECRET).doesNotContain("SECRET123");
        }
    }

    private List<String> logLines() {
        List<String> lines = new ArrayList<>();
        for (ILoggingEvent e : appender.list) {
            lines.add(e.getFormattedMessage());
            for (IThrowableProxy t = e.getThrowableProxy(); t != null; t = t.getCause()) {
                lines.add(t.getClassName() + ": " + t.getMessage());
            }
        }
        return lines;
    }
}
