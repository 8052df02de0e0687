package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Api;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * {@code GET /api/v1/admin/campaigns/{id}/live} against the real service while users tap from many
 * threads: its counts are the taps and wins the users were answered, prizes left plus wins make
 * what the round held, and its rates follow the clock. The reconciler is clean after every test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainLiveTest {

  private static final int THREADS = 8;
  // Few enough taps to finish well inside the 15 s the live counters live in real time, even on a
  // loaded box: the test clock stands while they run, so all of them fall in one of its seconds.
  private static final int USERS = 120;
  private static final int TAPS_PER_USER = 4;

  private RainFixture fixture;

  @BeforeAll
  void start() {
    fixture = new RainFixture();
  }

  @AfterAll
  void stop() {
    if (fixture != null) {
      fixture.close();
    }
  }

  @AfterEach
  void reconciled() {
    fixture.service.assertReconciled();
  }

  private Api api() {
    return fixture.api;
  }

  private void rewardsSwitch(boolean enabled) {
    Api.Response answer =
        api()
            .put(
                "/api/v1/admin/switches/rewards",
                fixture.admin,
                new JsonObject().put("enabled", enabled).encode());
    assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
  }

  private JsonObject live(String id) {
    Api.Response answer = api().get("/api/v1/admin/campaigns/" + id + "/live", fixture.admin);
    assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
    return answer.json();
  }

  @Test
  void live_countsEveryTapAndWin_ofConcurrentTappers() throws Exception {
    Instant now = fixture.clock.instant();
    String id =
        fixture.created(
            campaign(
                1_000_000,
                2,
                TAPS_PER_USER,
                round(
                    now.minusSeconds(10), 300, prize("CASH", 100, 150), prize("LIVE_TEA", 1, 50))));
    JsonObject before = live(id).getJsonArray("rounds").getJsonObject(0);
    assertThat(before.getLong("taps")).isZero();
    assertThat(before.getLong("wins")).isZero();
    assertThat(before.getLong("prizesLeft")).isEqualTo(200);

    var outcomes = new ConcurrentHashMap<String, AtomicLong>();
    var wonPerType = new ConcurrentHashMap<String, AtomicLong>();
    // Issuing waits while the users tap, then runs as one burst: the issue rate the live view
    // measures over real seconds then holds every issue of the test in one 5 s window.
    rewardsSwitch(false);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      var futures = new ArrayList<Future<?>>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  for (int u = thread; u < USERS; u += THREADS) {
                    String token = api().token("live-" + u);
                    for (int tap = 0; tap < TAPS_PER_USER; tap++) {
                      Api.Response answer =
                          api().post("/api/v1/campaigns/" + id + "/taps", token, Map.of(), "{}");
                      assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
                      String outcome = answer.json().getString("outcome");
                      outcomes.computeIfAbsent(outcome, k -> new AtomicLong()).incrementAndGet();
                      if (outcome.equals("WON")) {
                        String type = answer.json().getJsonObject("reward").getString("type");
                        wonPerType.computeIfAbsent(type, k -> new AtomicLong()).incrementAndGet();
                      }
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> future : futures) {
        future.get();
      }
    } finally {
      pool.shutdownNow();
      rewardsSwitch(true);
    }
    long taps = (long) USERS * TAPS_PER_USER;
    long wins = outcomes.getOrDefault("WON", new AtomicLong()).get();
    assertThat(outcomes.keySet()).isSubsetOf("WON", "MISSED", "LIMIT_REACHED");
    assertThat(wins).isBetween(1L, 200L);

    JsonObject round = live(id).getJsonArray("rounds").getJsonObject(0);
    assertThat(round.getString("status")).isEqualTo("RUNNING");
    assertThat(round.getLong("taps")).isEqualTo(taps);
    assertThat(round.getLong("wins")).isEqualTo(wins);
    assertThat(round.getLong("prizesLeft") + wins).isEqualTo(200);
    List<JsonObject> lines = objects(round, "prizes");
    assertThat(lines.get(0).getLong("left") + count(wonPerType, "CASH")).isEqualTo(150);
    assertThat(lines.get(1).getLong("left") + count(wonPerType, "LIVE_TEA")).isEqualTo(50);
    // The clock stands: every tap fell in the current second, the last of the series.
    List<JsonObject> seconds = objects(round, "seconds");
    assertThat(seconds).hasSize(10);
    JsonObject current = seconds.get(9);
    assertThat(current.getString("at")).startsWith(now.toString().substring(0, 19));
    assertThat(current.getLong("taps")).isEqualTo(taps);
    assertThat(current.getLong("wins")).isEqualTo(wins);
    assertThat(seconds.subList(0, 9))
        .allMatch(s -> s.getLong("taps") == 0 && s.getLong("wins") == 0);
    assertThat(round.getDouble("tapsPerSecond")).isZero();

    fixture.books.awaitCredited(id, wins, Duration.ofSeconds(60));
    // One second on, that second is whole and inside the rate window of 5 s.
    fixture.clock.advance(Duration.ofSeconds(1));
    JsonObject later = live(id);
    round = later.getJsonArray("rounds").getJsonObject(0);
    assertThat(round.getDouble("tapsPerSecond")).isEqualTo(Math.round(taps * 10 / 5.0) / 10.0);
    assertThat(round.getDouble("winsPerSecond")).isEqualTo(Math.round(wins * 10 / 5.0) / 10.0);
    assertThat(later.getLong("spent")).isEqualTo(count(wonPerType, "CASH") * 100);
    assertThat(later.getLong("budget")).isEqualTo(1_000_000);
    // The reward pipeline runs on the service's own clock: its issue rate is measured in real
    // seconds, so wait for the moment every issue of the test sits in the 5 s window.
    for (String type : List.of("CASH", "LIVE_TEA")) {
      double expected = Math.round(count(wonPerType, type) * 10 / 5.0) / 10.0;
      await()
          .atMost(Duration.ofSeconds(15))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> issuedPerSecond(id, type) == expected);
    }
    assertThat(objects(later, "types")).allMatch(t -> t.getLong("ratePerSecond") > 0);
    assertThat(objects(later, "types"))
        .extracting(t -> t.getString("type"))
        .containsExactly("CASH", "LIVE_TEA");
    assertThat(objects(later, "queues")).isNotEmpty().allMatch(q -> q.getLong("lag") >= 0);

    assertThat(returned(id, now.plusSeconds(290))).isEqualTo(1_000_000 - later.getLong("spent"));
  }

  /**
   * Ends the campaign on the clock and waits for its budget to go back, so no other test's closer
   * (the embedded database is shared) returns it while that test counts the funding account.
   */
  private long returned(String id, Instant endsAt) {
    Duration ahead =
        Duration.between(fixture.clock.instant(), endsAt.plus(CampaignWiring.RETURN_GRACE))
            .plusSeconds(1);
    fixture.clock.advance(ahead);
    return fixture.awaitReturned(id);
  }

  @Test
  void live_isForAdminsOnly_andKnowsItsCampaigns() {
    Instant now = fixture.clock.instant();
    String id =
        fixture.created(
            campaign(10_000, 1, 5, round(now.plusSeconds(60), 60, prize("CASH", 1, 5))));
    String path = "/api/v1/admin/campaigns/" + id + "/live";
    assertThat(api().get(path, null).status()).isEqualTo(401);
    assertThat(api().get(path, api().token("live-nobody")).status()).isEqualTo(403);
    assertThat(api().get("/api/v1/admin/campaigns/c_nosuch/live", fixture.admin).errorCode())
        .isEqualTo("NOT_FOUND");
    JsonObject round = live(id).getJsonArray("rounds").getJsonObject(0);
    assertThat(round.getString("status")).isEqualTo("SCHEDULED");
    assertThat(objects(round, "seconds")).isEmpty();

    assertThat(returned(id, now.plusSeconds(120))).isEqualTo(10_000);
  }

  private double issuedPerSecond(String id, String type) {
    return objects(live(id), "types").stream()
        .filter(t -> t.getString("type").equals(type))
        .findFirst()
        .orElseThrow()
        .getDouble("issuedPerSecond");
  }

  private static long count(Map<String, AtomicLong> counts, String key) {
    AtomicLong count = counts.get(key);
    return count == null ? 0 : count.get();
  }

  private static List<JsonObject> objects(JsonObject json, String field) {
    var list = new ArrayList<JsonObject>();
    json.getJsonArray(field).forEach(o -> list.add((JsonObject) o));
    return list;
  }
}
