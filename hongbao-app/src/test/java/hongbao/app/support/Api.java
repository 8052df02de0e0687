package hongbao.app.support;

import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

/** A small client of the HTTP contract for tests: every call returns status and parsed body. */
public final class Api {

  private final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final String base;

  public Api(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /** A status and the body, parsed when it is JSON. */
  public record Response(int status, String raw) {

    public JsonObject json() {
      return new JsonObject(raw);
    }

    public String errorCode() {
      return json().getJsonObject("error").getString("code");
    }
  }

  public String token(String userId) {
    return devToken(userId, false);
  }

  public String adminToken() {
    return devToken("ops", true);
  }

  private String devToken(String userId, boolean admin) {
    Response response =
        post(
            "/api/v1/dev/tokens",
            null,
            Map.of(),
            JsonObject.of("userId", userId, "admin", admin).encode());
    if (response.status() != 200) {
      throw new IllegalStateException("no dev token: " + response);
    }
    return response.json().getString("token");
  }

  public Response topUp(String userId, long amount) {
    return post(
        "/api/v1/admin/topups",
        adminToken(),
        Map.of("Idempotency-Key", UUID.randomUUID().toString()),
        JsonObject.of("userId", userId, "amount", amount).encode());
  }

  public Response send(String token, JsonObject body) {
    return post(
        "/api/v1/packets",
        token,
        Map.of("Idempotency-Key", UUID.randomUUID().toString()),
        body.encode());
  }

  /** Sends a LUCKY packet and returns its id. */
  public String sendLucky(String token, long amount, int count, long expiresInSeconds) {
    Response response =
        send(
            token,
            JsonObject.of(
                "amount",
                amount,
                "count",
                count,
                "type",
                "LUCKY",
                "expiresInSeconds",
                expiresInSeconds));
    if (response.status() != 201) {
      throw new IllegalStateException("send failed: " + response);
    }
    return response.json().getString("id");
  }

  public Response grab(String token, String packetId) {
    return post("/api/v1/packets/" + packetId + "/grab", token, Map.of(), "{}");
  }

  /** A grab that carries a 口令 phrase. */
  public Response grab(String token, String packetId, String password) {
    return post(
        "/api/v1/packets/" + packetId + "/grab",
        token,
        Map.of(),
        JsonObject.of("password", password).encode());
  }

  public CompletableFuture<Response> grabAsync(String token, String packetId) {
    return sendAsync(
        request("POST", "/api/v1/packets/" + packetId + "/grab", token, Map.of(), "{}"));
  }

  public Response get(String path, String token) {
    return call(request("GET", path, token, Map.of(), null));
  }

  public Response post(String path, String token, Map<String, String> headers, String body) {
    return call(request("POST", path, token, headers, body));
  }

  public Response put(String path, String token, String body) {
    return call(request("PUT", path, token, Map.of(), body));
  }

  public HttpRequest request(
      String method, String path, String token, Map<String, String> headers, String body) {
    var builder =
        HttpRequest.newBuilder(URI.create(base + path))
            .timeout(Duration.ofSeconds(30))
            .method(
                method,
                body == null
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofString(body));
    if (body != null) {
      builder.header("Content-Type", "application/json");
    }
    if (token != null) {
      builder.header("Authorization", "Bearer " + token);
    }
    // Set, not added: a test's own Content-Type replaces the JSON one above.
    headers.forEach(builder::setHeader);
    return builder.build();
  }

  public Response call(HttpRequest request) {
    try {
      HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
      return new Response(response.statusCode(), response.body());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  public CompletableFuture<Response> sendAsync(HttpRequest request) {
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString())
        .thenApply(r -> new Response(r.statusCode(), r.body()));
  }
}
