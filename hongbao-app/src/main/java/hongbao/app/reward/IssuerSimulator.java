package hongbao.app.reward;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A downstream issuer of coupons and items for tests and drills: {@code POST /} with {@code
 * {"tradeNo","userId","type","amount"}} answers 200 once issued (idempotent by tradeNo: a repeat
 * answers 200 and issues nothing), 429 above its capacity (a token bucket of {@code capacity} per
 * second, one second's burst), 503 at random with {@code errorRate}, 422 for good to a user it was
 * told to refuse ({@link #refuseUser}), each after {@code latency}. It records when each tradeNo
 * was issued, so a test can check the rate it was issued at.
 *
 * <p>Requests are answered on one Vert.x event loop; its state is guarded by the simulator's lock
 * only so that a test may read it from another thread.
 */
public final class IssuerSimulator implements AutoCloseable {

  private final Vertx vertx;
  private final HttpServer server;
  private final Settings settings;
  private final Clock clock;
  private final SplittableRandom random;
  private final Map<String, String> issuedType = new HashMap<>();
  private final Map<String, List<Long>> issuedAtByType = new HashMap<>();
  private long calls;
  private long errors;
  private long refused;
  private long repeats;
  private long declined;
  private final Set<String> refusedUsers = new HashSet<>();
  private double tokens;
  private long refilledAt;

  /** How the simulator behaves. */
  public record Settings(int port, long capacityPerSecond, double errorRate, Duration latency) {}

  private IssuerSimulator(Vertx vertx, Settings settings, Clock clock, long seed) {
    this.vertx = vertx;
    this.settings = settings;
    this.clock = clock;
    this.random = new SplittableRandom(seed);
    this.tokens = settings.capacityPerSecond();
    this.refilledAt = clock.millis();
    this.server = vertx.createHttpServer().requestHandler(this::handle);
  }

  public static IssuerSimulator start(Settings settings, Clock clock, long seed) {
    Vertx vertx = Vertx.vertx();
    var simulator = new IssuerSimulator(vertx, settings, clock, seed);
    simulator.server.listen(settings.port(), "127.0.0.1").await();
    return simulator;
  }

  public int port() {
    return server.actualPort();
  }

  public String url() {
    return "http://127.0.0.1:" + port() + "/issue";
  }

  private void handle(HttpServerRequest request) {
    if (request.method().name().equals("GET")) {
      request.response().putHeader("content-type", "application/json").end(stats().encode());
      return;
    }
    request
        .body()
        .onComplete(
            body -> {
              if (body.failed()) {
                request.response().setStatusCode(400).end();
                return;
              }
              JsonObject json;
              try {
                json = body.result().toJsonObject();
              } catch (RuntimeException e) {
                request.response().setStatusCode(400).end("not JSON");
                return;
              }
              long latency = settings.latency().toMillis();
              if (latency > 0) {
                vertx.setTimer(latency, id -> answer(request, json));
              } else {
                answer(request, json);
              }
            });
  }

  private synchronized void answer(HttpServerRequest request, JsonObject json) {
    calls++;
    String tradeNo = json.getString("tradeNo");
    String type = json.getString("type");
    if (tradeNo == null || type == null) {
      request.response().setStatusCode(400).end("tradeNo and type are required");
      return;
    }
    if (!take()) {
      refused++;
      request.response().setStatusCode(429).end("over capacity");
      return;
    }
    if (random.nextDouble() < settings.errorRate()) {
      errors++;
      request.response().setStatusCode(503).end("injected failure");
      return;
    }
    if (refusedUsers.contains(json.getString("userId"))) {
      declined++;
      request.response().setStatusCode(422).end("this user may not have it");
      return;
    }
    if (issuedType.putIfAbsent(tradeNo, type) == null) {
      issuedAtByType.computeIfAbsent(type, t -> new ArrayList<>()).add(clock.millis());
    } else {
      repeats++;
    }
    request.response().setStatusCode(200).end("{\"issued\":true}");
  }

  private boolean take() {
    long now = clock.millis();
    long capacity = settings.capacityPerSecond();
    if (now > refilledAt) {
      tokens = Math.min(capacity, tokens + (now - refilledAt) * capacity / 1000.0);
      refilledAt = now;
    }
    if (tokens < 1) {
      return false;
    }
    tokens -= 1;
    return true;
  }

  /**
   * From now on refuses this user's rewards for good (422), as an issuer answers a user it will
   * never serve: the pipeline must not call again.
   */
  public synchronized void refuseUser(String userId) {
    refusedUsers.add(userId);
  }

  /**
   * What the simulator saw, read on its event loop: {@code refused} over capacity (429), {@code
   * declined} for good (422).
   */
  public record Stats(
      long calls,
      long errors,
      long refused,
      long declined,
      long repeats,
      Map<String, Integer> issuedByType,
      Map<String, Integer> maxPerSecondByType) {}

  public Stats snapshot() {
    return statsOnLoop();
  }

  private synchronized Stats statsOnLoop() {
    var issued = new HashMap<String, Integer>();
    var max = new HashMap<String, Integer>();
    issuedAtByType.forEach(
        (type, times) -> {
          issued.put(type, times.size());
          max.put(type, maxInWindow(times, 1_000));
        });
    return new Stats(calls, errors, refused, declined, repeats, issued, max);
  }

  private JsonObject stats() {
    Stats stats = statsOnLoop();
    return new JsonObject()
        .put("calls", stats.calls())
        .put("errors", stats.errors())
        .put("refused", stats.refused())
        .put("declined", stats.declined())
        .put("repeats", stats.repeats())
        .put("issuedByType", new JsonObject(new HashMap<String, Object>(stats.issuedByType())))
        .put(
            "maxPerSecondByType",
            new JsonObject(new HashMap<String, Object>(stats.maxPerSecondByType())));
  }

  /** When each reward of {@code type} was issued (epoch ms), in the order they came. */
  public synchronized List<Long> issuedTimes(String type) {
    return List.copyOf(issuedAtByType.getOrDefault(type, List.of()));
  }

  /** Whether this tradeNo was issued. */
  public boolean issued(String tradeNo) {
    synchronized (this) {
      return issuedType.containsKey(tradeNo);
    }
  }

  /** The most events in any window of {@code windowMillis} (sliding, to the millisecond). */
  public static int maxInWindow(List<Long> times, long windowMillis) {
    var sorted = new ArrayList<>(times);
    sorted.sort(null);
    int best = 0;
    int from = 0;
    for (int to = 0; to < sorted.size(); to++) {
      while (sorted.get(to) - sorted.get(from) >= windowMillis) {
        from++;
      }
      best = Math.max(best, to - from + 1);
    }
    return best;
  }

  @Override
  public void close() {
    server.close().await();
    vertx.close().await();
  }
}
