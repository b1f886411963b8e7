package dev.santabatch.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.santabatch.model.CatalogModelServer.Call;
import dev.santabatch.model.CatalogModelServer.Kind;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scripted server's own record of what it received (the figures the fault soak checks budgets against). */
class CatalogModelServerTests {

    @Test
    void aRequestWhoseClientGivesUpBeforeItsBodyIsReadIsStillCountedAsReceived() throws Exception {
        try (CatalogModelServer server = CatalogModelServer.start(List.of())) {
            // given a client that sends a request's headers and part of its body, then gives up (closes)
            URI base = URI.create(server.baseUrl());
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), base.getPort())) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 1000\r\n\r\n{\"model\":\"model-b\"").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }

            // when the server has handled it
            boolean settled = server.settle(Duration.ofMillis(100), Duration.ofSeconds(30));

            // then it is a call the server received, recorded as unread
            assertThat(settled).isTrue();
            assertThat(server.received()).isEqualTo(1);
            assertThat(server.calls()).singleElement().satisfies(c -> {
                assertThat(c.seq()).isEqualTo(1);
                assertThat(c.kind()).isEqualTo(Kind.OTHER);
                assertThat(c.fault()).startsWith(CatalogModelServer.UNREAD_PREFIX);
            });
            assertThat(server.answers()).isEmpty();
        }
    }

    @Test
    void aRequestReadInFullIsCountedOnceUnderTheSeqItWasAcceptedWith() throws Exception {
        try (CatalogModelServer server = CatalogModelServer.start(List.of())) {
            // given a well-formed request
            var client = java.net.http.HttpClient.newHttpClient();
            var request = java.net.http.HttpRequest.newBuilder(URI.create(server.baseUrl() + "/chat/completions"))
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                            "{\"model\":\"model-x\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                    .header("Content-Type", "application/json").build();

            // when it is sent
            int status = client.send(request, java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode();

            // then it is recorded once, with its model, and answered
            assertThat(status).isEqualTo(200);
            assertThat(server.settle(Duration.ofMillis(50), Duration.ofSeconds(30))).isTrue();
            assertThat(server.received()).isEqualTo(1);
            assertThat(server.calls()).extracting(Call::seq, Call::model, Call::fault).containsExactly(
                    org.assertj.core.groups.Tuple.tuple(1, "model-x", ""));
        }
    }
}
