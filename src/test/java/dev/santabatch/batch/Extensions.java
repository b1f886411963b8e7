package dev.santabatch.batch;

import dev.santabatch.config.JobDefinition;
import dev.santabatch.config.JobFileException;
import dev.santabatch.config.JobFileLoader;
import dev.santabatch.config.ModelSpec;
import dev.santabatch.model.LlmClient;
import dev.santabatch.review.Fixer;
import dev.santabatch.review.step.ReviewerType;
import dev.santabatch.run.Launcher;
import dev.santabatch.run.RunRequest;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Scripted reviewer types and fixer for a whole run: {@link #run} calls {@link Launcher#run} with them
 * registered as beans of its application context before it refreshes (a {@link ReviewerType} bean named
 * as the type it replaces, a {@link Fixer} bean), through Spring Boot's {@link SpringApplication#withHook}.
 *
 * @param reviewerTypes reviewer types by job-file type name, replacing the built-in ones
 * @param fixer replaces the job file's fixer; {@code null}: the job file's
 * @param env environment variables (a model's API key) given to the run as {@link Launcher#ENV_PROPERTY_PREFIX}
 *     properties, unless the caller's properties give them
 */
public record Extensions(Map<String, ReviewerType> reviewerTypes, @Nullable Fixer fixer, Map<String, String> env) {

    public Extensions(Map<String, ReviewerType> reviewerTypes, @Nullable Fixer fixer) {
        this(reviewerTypes, fixer, Map.of());
    }

    /** No replacements; the run's models read {@code env} (tests: a fake API key). */
    public static Extensions withEnv(Map<String, String> env) {
        return new Extensions(Map.of(), null, env);
    }

    /**
     * {@link Launcher#run} with the replacements of {@code ext}, and {@code beans} (e.g. a transaction
     * listener) registered too. A role replaced by {@code ext} needs no API key: its variable is given
     * as {@code none} when the environment lacks it.
     */
    public static int run(RunRequest request, Map<String, Object> props, PrintStream out, PrintStream err,
            Extensions ext, Object... beans) {
        Map<String, Object> withEnv = new HashMap<>(props);
        ext.env().forEach((name, value) -> withEnv.putIfAbsent(Launcher.ENV_PROPERTY_PREFIX + name, value));
        for (String name : ext.replacedKeys(request)) {
            if (System.getenv(name) == null) {
                withEnv.putIfAbsent(Launcher.ENV_PROPERTY_PREFIX + name, "none");
            }
        }
        return SpringApplication.withHook(application -> new SpringApplicationRunListener() {
            @Override
            public void contextPrepared(ConfigurableApplicationContext context) {
                ext.reviewerTypes().forEach(context.getBeanFactory()::registerSingleton);
                if (ext.fixer() != null) {
                    context.getBeanFactory().registerSingleton("fixer", ext.fixer());
                }
                for (Object bean : beans) {
                    context.getBeanFactory().registerSingleton(bean.getClass().getName(), bean);
                }
            }
        }, () -> Launcher.run(request, withEnv, out, err));
    }

    /** The API-key variables of the job's model roles replaced here (llm reviewers, an llm fixer). */
    private List<String> replacedKeys(RunRequest request) {
        JobDefinition job;
        try {
            job = JobFileLoader.loadWithWarnings(request.jobFile(), name -> null).definition();
        } catch (JobFileException e) {
            return List.of(); // the run reports it
        }
        List<ModelSpec> models = new ArrayList<>();
        if (reviewerTypes.containsKey("llm")) {
            job.reviewers().stream().filter(r -> "llm".equals(r.type()) && r.model() != null).forEach(r -> models.add(r.model()));
        }
        if (fixer != null && "llm".equals(job.fixer().type()) && job.fixer().model() != null) {
            models.add(job.fixer().model());
        }
        return models.stream().map(m -> m.apiKeyEnv() == null || m.apiKeyEnv().isBlank()
                ? LlmClient.DEFAULT_API_KEY_ENV : m.apiKeyEnv().strip()).toList();
    }
}
