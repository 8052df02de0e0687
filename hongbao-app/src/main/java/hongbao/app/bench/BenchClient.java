package hongbao.app.bench;

import hongbao.http.auth.Tokens;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

/**
 * The benchmark's side of the HTTP contract, on the Vert.x web client: HTTP/1.1 keep-alive, no
 * pipelining, a pool as large as the concurrency so that in-flight requests never wait for a
 * connection. Tokens are signed here when the secret is known (no request per user), otherwise
 * minted through the dev endpoint.
 */
final class BenchClient implements AutoCloseable {

  /** Long enough for any bench run; short enough that a leaked token is worth little. */
  private static final Duration TOKEN_LIFETIME = Duration.ofHours(2);

  private static final long TIMEOUT_MILLIS = 30_000;
  private static final long SLOW_TIMEOUT_MILLIS = 600_000;

  private final Vertx vertx;
  private final WebClient web;
  private final Tokens signer;
  private final String adminToken;

  BenchClient(String baseUrl, int concurrency, String jwtSecret, Clock clock) {
    URI uri = URI.create(baseUrl);
    this.vertx = Vertx.vertx();
    this.web =
        WebClient.create(
            vertx,
            new WebClientOptions()
                .setDefaultHost(uri.getHost())
                .setDefaultPort(uri.getPort() < 0 ? 80 : uri.getPort())
                .setKeepAlive(true)
                .setPipelining(false)
                .setTcpNoDelay(true)
                .setConnectTimeout(60_000),
            new PoolOptions().setHttp1MaxSize(concurrency + 4));
    this.signer = jwtSecret == null ? null : new Tokens(jwtSecret, clock);
    this.adminToken = token("bench-ops", true);
  }

  Vertx vertx() {
    return vertx;
  }

  String token(String userId) {
    return token(userId, false);
  }

  private String token(String userId, boolean admin) {
    if (signer != null) {
      return signer.mint(userId, admin, TOKEN_LIFETIME);
    }
    JsonObject body =
        call(
                HttpMethod.POST,
                "/api/v1/dev/tokens",
                null,
                null,
                JsonObject.of("userId", userId, "admin", admin))
            .await();
    return expect(body, "token").getString("token");
  }

  String adminToken() {
    return adminToken;
  }

  /** Blocking top-up, for preparation only. */
  void topUp(String userId, long amountFen) {
    JsonObject body =
        call(
                HttpMethod.POST,
                "/api/v1/admin/topups",
                adminToken,
                UUID.randomUUID().toString(),
                JsonObject.of("userId", userId, "amount", amountFen))
            .await();
    expect(body, "balance");
  }

  /** A LUCKY packet; the future fails when the service refuses it. */
  Future<JsonObject> send(String token, long amountFen, int count) {
    return call(
        HttpMethod.POST,
        "/api/v1/packets",
        token,
        UUID.randomUUID().toString(),
        JsonObject.of("amount", amountFen, "count", count, "type", "LUCKY"));
  }

  Future<JsonObject> grab(String token, String packetId) {
    return call(
        HttpMethod.POST, "/api/v1/packets/" + packetId + "/grab", token, null, new JsonObject());
  }

  /** Blocking; the reconciler reads every packet, which takes a while after a big run. */
  JsonObject get(String path) {
    return call(HttpMethod.GET, path, adminToken, null, null, SLOW_TIMEOUT_MILLIS).await();
  }

  String getText(String path) {
    HttpResponse<Buffer> response = web.request(HttpMethod.GET, path).send().await();
    return response.bodyAsString();
  }

  void switchPayouts(boolean enabled) {
    JsonObject body =
        call(
                HttpMethod.PUT,
                "/api/v1/admin/switches/payouts",
                adminToken,
                null,
                JsonObject.of("enabled", enabled))
            .await();
    expect(body, "payouts");
  }

  /**
   * One request; the body of any answer is returned with its status under {@code _status} so that
   * the caller decides what is an error (429 is expected under load, for instance).
   */
  Future<JsonObject> call(
      HttpMethod method, String path, String token, String idempotencyKey, JsonObject body) {
    return call(method, path, token, idempotencyKey, body, TIMEOUT_MILLIS);
  }

  private Future<JsonObject> call(
      HttpMethod method,
      String path,
      String token,
      String idempotencyKey,
      JsonObject body,
      long timeoutMillis) {
    var request = web.request(method, path).timeout(timeoutMillis);
    if (token != null) {
      request.putHeader("Authorization", "Bearer " + token);
    }
    if (idempotencyKey != null) {
      request.putHeader("Idempotency-Key", idempotencyKey);
    }
    Future<HttpResponse<Buffer>> sent =
        body == null ? request.send() : request.sendBuffer(body.toBuffer());
    return sent.map(
        response -> {
          String text = response.bodyAsString();
          JsonObject json =
              text == null || text.isEmpty() || !text.startsWith("{")
                  ? new JsonObject()
                  : new JsonObject(text);
          return json.put("_status", response.statusCode());
        });
  }

  private static JsonObject expect(JsonObject body, String field) {
    int status = body.getInteger("_status", 0);
    if (status / 100 != 2 || !body.containsKey(field)) {
      throw new IllegalStateException("unexpected answer (" + status + "): " + body.encode());
    }
    return body;
  }

  @Override
  public void close() {
    web.close();
    vertx.close().await();
  }
}
