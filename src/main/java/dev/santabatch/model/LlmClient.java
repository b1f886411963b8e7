package dev.santabatch.model;

import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.request.ResponseFormat;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.output.FinishReason;
import dev.langchain4j.model.output.TokenUsage;
import dev.santabatch.config.ModelSpec;
import dev.santabatch.model.http.OpenAiChatModels;
import dev.santabatch.review.ConfigurationException;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * One configured model for one role (a reviewer, the fixer, the matcher), every call through the
 * {@link CallGovernor}. Each call is a fresh, stateless request of exactly a system and a user
 * message: no memory, nothing shared between calls, roles, items or rounds. Thread-safe.
 *
 * <p>Defaults, resolved here: base URL = {@code model.base-url}, else the environment's
 * {@code OPENAI_BASE_URL}, else {@value #DEFAULT_BASE_URL}; the API key is the value of the
 * environment variable {@code model.api-key-env} (defaults to {@code OPENAI_API_KEY}), which must be
 * set. The key is handed to the HTTP layer only: it is never logged, stored or put in a message.
 */
public final class LlmClient {

    public static final String DEFAULT_BASE_URL = ModelSpec.DEFAULT_BASE_URL;
    public static final String BASE_URL_ENV = ModelSpec.BASE_URL_ENV;
    public static final String DEFAULT_API_KEY_ENV = "OPENAI_API_KEY";

    private final ChatModel model;
    private final ModelTarget target;
    private final String role;
    private final ModelSpec spec;
    private final CallGovernor governor;

    private LlmClient(ChatModel model, ModelTarget target, String role, ModelSpec spec, CallGovernor governor) {
        this.model = model;
        this.target = target;
        this.role = role;
        this.spec = spec;
        this.governor = governor;
    }

    /**
     * @param spec the job file's model
     * @param role the accounting role ({@link LlmRoles})
     * @param env environment lookup ({@code System::getenv} in production)
     * @throws ConfigurationException the API key's environment variable is not set
     */
    public static LlmClient create(ModelSpec spec, String role, CallGovernor governor, Function<String, @Nullable String> env) {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(governor, "governor");
        String baseUrl = resolveBaseUrl(spec, env);
        String keyEnv = spec.apiKeyEnv() == null || spec.apiKeyEnv().isBlank() ? DEFAULT_API_KEY_ENV : spec.apiKeyEnv();
        String key = env.apply(keyEnv);
        if (key == null || key.isBlank()) {
            throw new ConfigurationException("the environment variable " + keyEnv + " (model.api-key-env of " + role
                    + ", model '" + spec.model() + "') is not set; set it to the API key (for a local server that needs none, any value such as 'none')");
        }
        ChatModel chatModel = OpenAiChatModels.create(spec, baseUrl, key.strip(), governor.settings().logRequests());
        ModelTarget target = new ModelTarget(baseUrl, spec.model(), spec.priceInputPerMillion(), spec.priceOutputPerMillion(),
                keyEnv);
        return new LlmClient(chatModel, target, role, spec, governor);
    }

    static String resolveBaseUrl(ModelSpec spec, Function<String, @Nullable String> env) {
        return spec.resolvedBaseUrl(env);
    }

    public ModelTarget target() {
        return target;
    }

    public String role() {
        return role;
    }

    public ModelSpec.StructuredOutput structuredOutput() {
        return spec.structuredOutput() == null ? ModelSpec.StructuredOutput.JSON_SCHEMA : spec.structuredOutput();
    }

    CallGovernor governor() {
        return governor;
    }

    /**
     * One governed call: a system and a user message, nothing else.
     *
     * @param format the response format, or {@code null} for plain text
     */
    public ModelAnswer ask(String system, String user, @Nullable ResponseFormat format) throws ModelCallFailedException {
        ChatRequest.Builder b = ChatRequest.builder().messages(SystemMessage.from(system), UserMessage.from(user));
        if (format != null) {
            b.responseFormat(format);
        }
        ChatRequest request = b.build();
        CallGovernor.Estimate estimate = CallGovernor.Estimate.of((long) system.length() + user.length(), spec.maxOutputTokens());
        return governor.ask(question(system, user, format), target, role, estimate, () -> {
            ChatResponse response = model.chat(request);
            String text = response.aiMessage() == null || response.aiMessage().text() == null ? "" : response.aiMessage().text();
            TokenUsage u = response.tokenUsage();
            long in = u == null || u.inputTokenCount() == null ? 0 : u.inputTokenCount();
            long out = u == null || u.outputTokenCount() == null ? 0 : u.outputTokenCount();
            return new ModelAnswer(text, response.finishReason() == FinishReason.LENGTH, in, out);
        });
    }

    /** The question's digest: role, model, endpoint, response format and both messages (SHA-256, hex). */
    private String question(String system, String user, @Nullable ResponseFormat format) {
        try {
            java.security.MessageDigest d = java.security.MessageDigest.getInstance("SHA-256");
            // the format by its type and schema name (its objects have no stable text of their own); the
            // schema itself follows from the criteria, which the user message names
            String shape = format == null ? "text" : format.type() + (format.jsonSchema() == null ? "" : " " + format.jsonSchema().name());
            for (String part : new String[] {role, target.endpoint(), target.model(), shape, system, user}) {
                d.update(part.getBytes(java.nio.charset.StandardCharsets.UTF_8));
                d.update((byte) 0);
            }
            return java.util.HexFormat.of().formatHex(d.digest());
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Counts an answer retry (a fresh call after an unusable answer) under this client's role. */
    public void recordAnswerRetry() {
        governor.recordAnswerRetry(role);
    }

    /** Counts an unusable answer under this client's role. */
    public void recordAnswerError(ErrorKind kind) {
        governor.recordAnswerError(role, kind);
    }

    @Override
    public String toString() {
        return "LlmClient[" + role + ", " + target.model() + " at " + target.endpoint() + "]";
    }
}
