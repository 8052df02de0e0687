package hongbao.app.bench;

import hongbao.client.HongbaoClient;
import hongbao.client.HongbaoException;
import hongbao.client.Messages.Grab;
import hongbao.client.Messages.Reconciliation;
import hongbao.client.Messages.Send;
import hongbao.client.RetryPolicy;
import hongbao.client.Sleeper;
import hongbao.http.auth.Tokens;
import io.vertx.core.Future;
import io.vertx.core.Promise;
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
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The benchmark's side of the HTTP contract. Setup and checks (tokens, top-ups, the packets a
 * scenario grabs, switches, reward types and campaigns, the reconciliation) go through the typed
 * {@link HongbaoClient}, so every bench run uses the client as a program would. Tokens are signed
 * here when the secret is known (no request per user), otherwise minted through the dev endpoint.
 *
 * <p>The measured load (grabs, the mixed scenario's sends, rewards, taps) goes through the Vert.x
 * web client: HTTP/1.1 keep-alive, no pipelining, a pool as large as the concurrency so that
 * in-flight requests never wait for a connection, and open-loop (a request leaves on schedule, not
 * when a thread is free), which the blocking typed client can only do with a thread per request in
 * flight. Measured with {@code bench --embedded --scenario hot --shares 20000 --runs 2
 * --grab-client vertx|typed} on the shared 2-core box: the generator spent 63.5 µs of CPU per grab
 * on Vert.x and 273.5 µs on the typed client (java.net.http, Jackson, a virtual thread per call),
 * and the service, sharing those cores, answered 4,013 grabs/s against 2,072. What the generator
 * spends, the service it measures lacks: the grab loop stays on Vert.x.
 */
final class BenchClient implements AutoCloseable {

  /** Long enough for any bench run; short enough that a leaked token is worth little. */
  private static final Duration TOKEN_LIFETIME = Duration.ofHours(2);

  private static final long TIMEOUT_MILLIS = 30_000;

  /**
   * How long an unused connection stays in the pool: a third of the service's default idle timeout.
   */
  private static final int KEEP_ALIVE_SECONDS = 10;

  private static final Duration SLOW_TIMEOUT = Duration.ofMinutes(10);

  private final Vertx vertx;
  private final WebClient web;
  private final HongbaoClient typed;
  private final HongbaoClient admin;
  private final HongbaoClient typedGrabs;
  private final ExecutorService grabThreads = Executors.newVirtualThreadPerTaskExecutor();
  private final Tokens signer;
  private final String adminToken;
  private volatile GrabPath grabPath = GrabPath.VERTX;

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
                // Retire an idle connection well before the service's idle timeout (30 s by
                // default) closes it: a request sent on a connection the service is closing at
                // that moment fails with the connection, which the bench would count as a failure
                // of the service. The rain's rounds wait longer than that for their returns.
                .setKeepAliveTimeout(KEEP_ALIVE_SECONDS)
                .setPipelining(false)
                .setTcpNoDelay(true)
                .setConnectTimeout(60_000),
            new PoolOptions().setHttp1MaxSize(concurrency + 4));
    this.typed = HongbaoClient.create(uri);
    this.typedGrabs = typed.withRetries(RetryPolicy.NONE, Sleeper.REAL, new SplittableRandom(1));
    this.signer = jwtSecret == null ? null : new Tokens(jwtSecret, clock);
    this.adminToken = token("bench-ops", true);
    this.admin = typed.withToken(adminToken).withTimeout(SLOW_TIMEOUT);
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
    return typed.devToken(userId, admin);
  }

  String adminToken() {
    return adminToken;
  }

  /** The typed client as the bench's operator (admin token), for setup and checks. */
  HongbaoClient admin() {
    return admin;
  }

  /** Blocking top-up, for preparation only. */
  void topUp(String userId, long amountFen) {
    admin.topUp(userId, amountFen);
  }

  /** Blocking: a LUCKY packet sent as {@code token}'s holder, for preparation; its id. */
  String sendLucky(String token, long amountFen, int count) {
    return typed.withToken(token).send(Send.lucky(amountFen, count)).id();
  }

  /** A LUCKY packet, as load; the future fails when the service refuses it. */
  Future<JsonObject> send(String token, long amountFen, int count) {
    return call(
        HttpMethod.POST,
        "/api/v1/packets",
        token,
        UUID.randomUUID().toString(),
        JsonObject.of("amount", amountFen, "count", count, "type", "LUCKY"));
  }

  Future<JsonObject> grab(String token, String packetId) {
    if (grabPath == GrabPath.TYPED) {
      return typedGrab(token, packetId);
    }
    return call(
        HttpMethod.POST, "/api/v1/packets/" + packetId + "/grab", token, null, new JsonObject());
  }

  /** Which client the grabs go through. */
  void grabThrough(GrabPath path) {
    this.grabPath = path;
  }

  /**
   * A grab through the typed client, blocking on a virtual thread of its own, its answer in the
   * shape the Vert.x path gives ({@code _status}, then the body's fields). No retries: the bench
   * counts what the service answered.
   */
  private Future<JsonObject> typedGrab(String token, String packetId) {
    Promise<JsonObject> answer = Promise.promise();
    grabThreads.execute(
        () -> {
          try {
            Grab grab = typedGrabs.withToken(token).grab(packetId, null);
            answer.complete(
                JsonObject.of("_status", 200, "outcome", grab.outcome(), "amount", grab.amount()));
          } catch (HongbaoException refused) {
            answer.complete(JsonObject.of("_status", refused.status()));
          } catch (RuntimeException failed) {
            answer.fail(failed);
          }
        });
    return answer.future();
  }

  /** The client the grab loop uses: {@code vertx} (the default) or {@code typed}. */
  enum GrabPath {
    VERTX,
    TYPED;

    static GrabPath parse(String name) {
      return switch (name) {
        case "vertx" -> VERTX;
        case "typed" -> TYPED;
        default ->
            throw new IllegalArgumentException(
                "unknown grab client '" + name + "': vertx or typed");
      };
    }
  }

  /** Blocking; the reconciler reads every packet, which takes a while after a big run. */
  Reconciliation reconcile() {
    return admin.reconcile();
  }

  /** Blocking GET of an admin path the typed client does not cover (a rain campaign). */
  JsonObject get(String path) {
    return call(HttpMethod.GET, path, adminToken, null, null, SLOW_TIMEOUT.toMillis()).await();
  }

  /** The Prometheus text of /metrics, which is no part of the JSON contract. */
  String getText(String path) {
    HttpResponse<Buffer> response = web.request(HttpMethod.GET, path).send().await();
    return response.bodyAsString();
  }

  void switchPayouts(boolean enabled) {
    admin.setSwitch("payouts", enabled);
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

  @Override
  public void close() {
    grabThreads.shutdownNow();
    web.close();
    vertx.close().await();
  }
}
