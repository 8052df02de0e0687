package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import hongbao.core.campaign.TapOutcome;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Taps inside the window rain.md bounds: Redis restarts with an older state (1,000 wins older here
 * is 300), and users tap before the pools' repair has run. The pools offer the lost wins' prizes
 * again, and the window's taps take them: the round issues as many prizes more than it holds as
 * Redis lost. The repair then finds no prize left to put each lost win back into, and the
 * reconciler names exactly those wins (each in two lines: not in the pools, and credited without
 * the budget trade Redis forgot) and nothing else.
 *
 * <p>The service's repair and closer loops are held back (a sweep interval of an hour) so that the
 * window lasts as long as the test needs; the test runs each step by hand. The prizes are coupons,
 * which cost no budget: the CASH a window could over-issue is capped by the campaign's escrow
 * (rain.md), a different check.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RainRepairWindowTest extends RainOfItsOwn {

  private static final long PRIZES = 1_000;
  private static final int KEPT = 600;
  private static final int LOST = 300;
  private static final int IN_THE_WINDOW = 400;

  RainRepairWindowTest() {
    super(
        "rain-window",
        Map.of("HONGBAO_SWEEP_INTERVAL_MILLIS", Long.toString(Duration.ofHours(1).toMillis())));
  }

  @Test
  void tapsBeforeTheRepair_takeTheLostWinsPrizesAgain_andTheReconcilerNamesEachLostWin()
      throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(10);
    String id = fixture.created(campaign(100, 1, 10, round(starts, 60, prize("VIP", 1, PRIZES))));
    // The round's last second: every tap draws. The clock stands there until the round is over.
    fixture.clock.advance(Duration.between(fixture.clock.instant(), starts.plusMillis(59_500)));
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();

    fixture.tap(id, RainFixture.users("kept-", KEPT), 1, wins, perUser);
    fixture.books.awaitCredited(id, KEPT, Duration.ofSeconds(60));
    Path older = redis.snapshot(rain.snapshots.resolve("older.aof"));
    fixture.tap(id, RainFixture.users("lost-", LOST), 1, wins, perUser);
    Set<String> lost =
        wins.keySet().stream().filter(t -> t.contains("_lost-")).collect(Collectors.toSet());
    assertThat(lost).hasSize(LOST);
    fixture.books.awaitCredited(id, KEPT + LOST, Duration.ofSeconds(60));

    redis.restartFrom(older);
    assertThat(prizesLeft(id)).as("the older state").isEqualTo(PRIZES - KEPT);

    // The window: new users tap before anything repairs the pools, and take every prize the older
    // state shows, the lost wins' among them.
    fixture.tap(id, RainFixture.users("window-", IN_THE_WINDOW), 1, wins, perUser);
    assertThat(wins)
        .as("the round over-issues by what Redis lost")
        .hasSize(KEPT + LOST + IN_THE_WINDOW);
    assertThat(prizesLeft(id)).isZero();
    fixture.books.awaitCredited(id, KEPT + LOST + IN_THE_WINDOW, Duration.ofSeconds(60));
    assertThat(fixture.books.rewards(id))
        .as("each win credited once")
        .isEqualTo((long) KEPT + LOST + IN_THE_WINDOW);

    // The repair: a new run id, every lost win to put back, and no prize left for any of them
    // (each is logged as such).
    assertThat(fixture.rain().repair().checkOnce()).as("wins put back").isZero();
    assertThat(prizesLeft(id)).isZero();

    // The round ends; the closer issues the trades Redis forgot again and returns the budget.
    fixture.clock.advance(
        Duration.between(
            fixture.clock.instant(),
            starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1)));
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () -> {
              fixture.rain().closer().closeOnce();
              return fixture.rain().store().returned(id).isPresent();
            });
    assertThat(fixture.awaitReturned(id)).as("no CASH: the whole budget").isEqualTo(100);

    var answer = fixture.api.get("/api/v1/admin/reconciliation", fixture.admin);
    assertThat(answer.status()).as(answer.raw()).isEqualTo(200);
    List<String> lines =
        answer.json().getJsonArray("discrepancies").stream().map(String.class::cast).toList();
    // Each lost win twice: not in the pools (no prize was left to put it back into), and credited
    // without the budget trade Redis forgot (the closer re-issues only wins the pools record).
    assertThat(lines).as(answer.raw()).hasSize(2 * LOST);
    assertThat(named(lines, "campaign " + id + ": issued win (\\S+) is not recorded in the pools"))
        .isEqualTo(lost);
    assertThat(named(lines, "reward (\\S+): credited but never accepted")).isEqualTo(lost);
  }

  /** The tradeNos named by the lines matching {@code pattern}, checking none is named twice. */
  private static Set<String> named(List<String> lines, String pattern) {
    var matcher = java.util.regex.Pattern.compile(pattern);
    List<String> names =
        lines.stream()
            .map(matcher::matcher)
            .filter(java.util.regex.Matcher::matches)
            .map(m -> m.group(1))
            .toList();
    assertThat(names).doesNotHaveDuplicates();
    return Set.copyOf(names);
  }

  private long prizesLeft(String id) {
    return fixture.rain().service().view(id).rounds().getFirst().prizesLeft();
  }
}
