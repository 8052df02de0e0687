package hongbao.app.campaign;

import static hongbao.app.campaign.RainFixture.campaign;
import static hongbao.app.campaign.RainFixture.prize;
import static hongbao.app.campaign.RainFixture.round;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import hongbao.app.support.Api;
import hongbao.core.Unavailable;
import hongbao.core.campaign.Campaign;
import hongbao.core.campaign.CampaignStore;
import hongbao.core.campaign.Campaigns;
import hongbao.core.campaign.TapOutcome;
import hongbao.core.campaign.TapService;
import hongbao.core.money.Amount;
import hongbao.core.reward.Reward;
import hongbao.core.reward.RewardBudget;
import hongbao.redis.RedisLink;
import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.ScanArgs;
import io.vertx.core.json.JsonObject;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Editing a scheduled rain ({@code PUT /api/v1/admin/campaigns/{id}}) end to end on real Redis,
 * PostgreSQL and Kafka, rounds on a test clock: the edited rounds are the ones served (prizes,
 * limits, budget), the escrow and the reward budget follow, an instance holding the old copy serves
 * the new version, a crash between the commit and the arming heals, and every refusal changes
 * nothing. The reconciler runs after each test.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CampaignEditTest {

  private static final Duration LEAD = Duration.ofSeconds(60);
  private static final int THREADS = 8;

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

  private Api.Response edit(String id, JsonObject body) {
    return fixture.api.put("/api/v1/admin/campaigns/" + id, fixture.admin, body.encode());
  }

  private void at(Instant instant) {
    Duration ahead = Duration.between(fixture.clock.instant(), instant);
    assertThat(ahead.isNegative()).as("the test clock only moves forward").isFalse();
    fixture.clock.advance(ahead);
  }

  private long editTransfers(String id) {
    return fixture.books.value(
        "SELECT count(*) FROM transfer WHERE kind = 'CAMPAIGN' AND key LIKE ?",
        "campaign-edit:" + id + ":%");
  }

  private RewardBudget.BudgetState budgetState(String id) {
    return fixture.service.hongbao().rewards().sdk().parts().budget().state(id);
  }

  private static void assertError(Api.Response response, int status, String code) {
    assertThat(response.status()).as(response.raw()).isEqualTo(status);
    assertThat(response.errorCode()).as(response.raw()).isEqualTo(code);
  }

  /**
   * A campaign edited twice before its first round — more prizes, a second round, later times and a
   * larger budget; the same body again; then fewer prizes and a smaller budget — runs exactly as
   * last edited: 1,000 and 500 users tapping in the rounds' last seconds win every prize of the
   * edited counts and no more, nobody over the edited limit, the escrow moved once per change, the
   * old versions' pools gone, and the unspent budget returned once.
   */
  @Test
  void editedTwice_thenTheRoundsServeTheLastVersion_andTheBooksAreExact() throws Exception {
    Instant now = fixture.clock.instant();
    String id =
        fixture.created(
            campaign(
                50_000,
                3,
                10,
                round(
                    now.plusSeconds(600), 60, prize("CASH", 100, 400), prize("CASH", 1_000, 10))));
    long system = fixture.systemBalance();
    Instant starts = now.plusSeconds(900);

    var larger =
        campaign(
            120_000,
            2,
            10,
            round(starts, 60, prize("CASH", 100, 600), prize("CASH", 1_000, 10)),
            round(starts.plusSeconds(120), 30, prize("CASH", 50, 200)));
    var edited = edit(id, larger);
    assertThat(edited.status()).as(edited.raw()).isEqualTo(200);
    JsonObject json = edited.json();
    assertThat(json.getInteger("version")).isEqualTo(2);
    assertThat(json.getLong("budget")).isEqualTo(120_000);
    assertThat(json.getInteger("maxWinsPerUser")).isEqualTo(2);
    assertThat(Instant.parse(json.getString("startsAt"))).isEqualTo(starts);
    assertThat(json.getString("status")).isEqualTo("SCHEDULED");
    assertThat(json.getJsonArray("rounds")).hasSize(2);
    assertThat(json.getJsonArray("rounds").getJsonObject(0).getLong("prizesLeft"))
        .as("the new version's pools are armed")
        .isEqualTo(610);
    assertThat(fixture.escrow(id)).isEqualTo(120_000);
    assertThat(fixture.systemBalance()).isEqualTo(system - 70_000);
    assertThat(editTransfers(id)).isEqualTo(1);
    assertThat(budgetState(id).budget().fen()).isEqualTo(120_000);
    assertThat(budgetState(id).allowance().fen()).isEqualTo(120_000);

    // PUT again with the same body: nothing moves twice.
    var again = edit(id, larger);
    assertThat(again.status()).as(again.raw()).isEqualTo(200);
    assertThat(again.json().getInteger("version")).isEqualTo(2);
    assertThat(fixture.escrow(id)).isEqualTo(120_000);
    assertThat(editTransfers(id)).isEqualTo(1);

    var smaller =
        campaign(
            100_000,
            2,
            10,
            round(starts, 60, prize("CASH", 100, 450), prize("CASH", 1_000, 10)),
            round(starts.plusSeconds(120), 30, prize("CASH", 50, 200)));
    var cut = edit(id, smaller);
    assertThat(cut.status()).as(cut.raw()).isEqualTo(200);
    assertThat(cut.json().getInteger("version")).isEqualTo(3);
    assertThat(fixture.escrow(id)).isEqualTo(100_000);
    assertThat(fixture.systemBalance()).isEqualTo(system - 50_000);
    assertThat(editTransfers(id)).isEqualTo(2);
    assertThat(budgetState(id).budget().fen()).isEqualTo(100_000);
    assertThat(budgetState(id).allowance().fen()).isEqualTo(100_000);
    assertThat(keysOf(id))
        .as("only version 3's pools are left")
        .isNotEmpty()
        .allSatisfy(key -> assertThat(key).matches("hb:cp:\\{cp:" + id + ":\\d+:v3\\}:.*"));

    at(starts.plusMillis(59_500));
    var first = rain(fixture.rain().taps(), id, "edit-a-", 1_000, 3);
    assertThat(first.wins()).hasSize(460);
    assertThat(amounts(first)).isEqualTo(Map.of(100L, 450L, 1_000L, 10L));
    assertThat(first.perUser().values())
        .allSatisfy(n -> assertThat(n.get()).isLessThanOrEqualTo(2));

    at(starts.plusSeconds(120).plusMillis(29_500));
    var second = rain(fixture.rain().taps(), id, "edit-b-", 500, 3);
    assertThat(second.wins()).hasSize(200);
    assertThat(amounts(second)).isEqualTo(Map.of(50L, 200L));

    long cash = 45_000 + 10_000 + 10_000;
    fixture.books.awaitCredited(id, 660, Duration.ofSeconds(60));
    assertThat(fixture.rain().service().view(id).spent().fen()).isEqualTo(cash);
    at(starts.plusSeconds(150).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(id)).isEqualTo(100_000 - cash);
    assertThat(fixture.returnTransfers(id)).isEqualTo(1);
    assertThat(fixture.escrow(id)).isZero();
    assertThat(fixture.systemBalance()).isEqualTo(system - 50_000 + (100_000 - cash));
  }

  /**
   * 409 for a campaign that starts within the lead, runs or ended, and for new rounds within the
   * lead; 400 for an invalid body whatever the campaign's state (validation first); 404 for an
   * unknown id; 403 for a user. None of them changes anything.
   */
  @Test
  void refusals_changeNothing() {
    Instant now = fixture.clock.instant();
    Instant starts = now.plusSeconds(120);
    String id = fixture.created(campaign(1_000, 1, 5, round(starts, 60, prize("CASH", 100, 5))));
    long system = fixture.systemBalance();
    var later = campaign(2_000, 1, 5, round(starts.plusSeconds(600), 60, prize("CASH", 100, 5)));
    var overBudget = campaign(499, 1, 5, round(starts.plusSeconds(600), 60, prize("CASH", 100, 5)));

    assertError(edit(id, overBudget), 400, "INVALID_AMOUNT");
    var unknownField = edit(id, later.copy().put("colour", "red"));
    assertError(unknownField, 400, "INVALID_REQUEST");
    assertThat(unknownField.raw()).contains("colour");
    assertError(
        edit(id, campaign(1_000, 1, 5, round(starts, 60, prize("CASH", 1, 0)))),
        400,
        "INVALID_COUNT");
    assertError(edit("c_nope", overBudget), 400, "INVALID_AMOUNT");
    assertError(edit("c_nope", later), 404, "NOT_FOUND");
    assertError(
        fixture.api.put(
            "/api/v1/admin/campaigns/" + id, fixture.api.token("edit-eve"), later.encode()),
        403,
        "FORBIDDEN");
    var tooSoon = campaign(1_000, 1, 5, round(now.plusSeconds(59), 60, prize("CASH", 100, 5)));
    var soon = edit(id, tooSoon);
    assertError(soon, 409, "CONFLICT");
    assertThat(soon.raw()).contains("within 60 s");

    at(starts.minusSeconds(60));
    var withinLead = edit(id, later);
    assertError(withinLead, 409, "CONFLICT");
    assertThat(withinLead.raw()).contains("can no longer be edited");
    at(starts.plusSeconds(1));
    var running = edit(id, later);
    assertError(running, 409, "CONFLICT");
    assertThat(running.raw()).contains("running");
    assertError(edit(id, overBudget), 400, "INVALID_AMOUNT");
    at(starts.plusSeconds(61));
    var ended = edit(id, later);
    assertError(ended, 409, "CONFLICT");
    assertThat(ended.raw()).contains("ended");

    var view = fixture.api.get("/api/v1/campaigns/" + id, fixture.admin).json();
    assertThat(view.getInteger("version")).isEqualTo(1);
    assertThat(view.getLong("budget")).isEqualTo(1_000);
    assertThat(fixture.escrow(id)).isEqualTo(1_000);
    assertThat(fixture.systemBalance()).isEqualTo(system);
    assertThat(editTransfers(id)).isZero();
    at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(id)).isEqualTo(1_000);
  }

  /**
   * A reward paid from a scheduled rain's campaign through the reward API (allowed at any time)
   * fixes its terms: an edit would have to resize budget keys that hold a reservation. It is
   * refused with nothing moved, and the rain still runs, closes and returns as created.
   */
  @Test
  void aCampaignPaidFromByTheRewardApi_refusesAnEdit_andStillCloses() {
    Instant starts = fixture.clock.instant().plusSeconds(120);
    var created = campaign(1_000, 1, 5, round(starts, 60, prize("CASH", 100, 5)));
    String id = fixture.created(created);
    long system = fixture.systemBalance();
    fixture.othersBonus(id, 300);

    var refused =
        edit(id, campaign(2_000, 1, 5, round(starts.plusSeconds(600), 60, prize("CASH", 100, 5))));
    assertError(refused, 409, "CONFLICT");
    assertThat(refused.raw()).contains("reserved");
    assertThat(edit(id, created).status()).as("the same terms again").isEqualTo(200);

    var view = fixture.api.get("/api/v1/campaigns/" + id, fixture.admin).json();
    assertThat(view.getInteger("version")).isEqualTo(1);
    assertThat(fixture.systemBalance()).isEqualTo(system);
    assertThat(editTransfers(id)).isZero();
    at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(id)).isEqualTo(700);
  }

  /**
   * A reward sent through the API while an edit commits (the escrow's row held by another
   * transaction, after the edit looked at the budget): the reward is refused for a retry, since the
   * budget is frozen until the resize; the edit goes through whole, and the retry reserves on the
   * resized budget. Sent unrefused, it left the keys half resized and every arming of the campaign
   * refused.
   */
  @Test
  void aRewardSentWhileAnEditCommits_waitsForTheResize_andTheEditGoesThroughWhole()
      throws Exception {
    Instant starts = fixture.clock.instant().plusSeconds(120);
    String id = fixture.created(campaign(1_000, 1, 5, round(starts, 60, prize("CASH", 100, 5))));
    Instant later = starts.plusSeconds(600);
    var edited = campaign(2_000, 1, 5, round(later, 60, prize("CASH", 100, 5)));
    Api.Response answer;
    try (Connection lock =
        fixture.service.hongbao().parts().database().dataSource().getConnection()) {
      lock.setAutoCommit(false);
      // The escrow's row: the edit moves the budget's difference in, after its look at the budget.
      try (var row = lock.prepareStatement("SELECT id FROM account WHERE id = ? FOR UPDATE")) {
        row.setString(1, "campaign:" + id);
        row.executeQuery().close();
      }
      var editing = CompletableFuture.supplyAsync(() -> edit(id, edited));
      // Past its look at the budget, waiting for the row.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  editing.isDone()
                      || fixture.books.value(
                              "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a"
                                  + " ON a.pid = l.pid WHERE NOT l.granted"
                                  + " AND a.query ILIKE '%account%'")
                          > 0);
      assertThat(editing.isDone())
          .as("the edit waits for the lock: %s", editing.getNow(null))
          .isFalse();
      assertThatThrownBy(() -> fixture.othersBonus(id, 300))
          .as("refused while the edit commits")
          .isInstanceOf(Unavailable.class);
      lock.rollback();
      answer = editing.get(30, TimeUnit.SECONDS);
    }

    assertThat(answer.status()).isEqualTo(200);
    assertThat(budgetState(id).budget().fen()).isEqualTo(2_000);
    assertThat(budgetState(id).reserved()).isEqualTo(Amount.ZERO);
    fixture.othersBonus(id, 300);
    assertThat(budgetState(id).reserved().fen()).isEqualTo(300);
    at(later.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(id)).isEqualTo(1_700);
  }

  /**
   * A reward larger than its budget key's share borrows allowance from the other keys; released
   * since, it leaves nothing reserved, but the keys' allowances moved, and a resize would have to
   * undo that: the terms are fixed as well, and the campaign still closes as created.
   */
  @Test
  void aCampaignWhoseBudgetWasLentBetweenKeys_refusesAnEdit_thoughNothingIsReservedNow() {
    Instant starts = fixture.clock.instant().plusSeconds(120);
    var created = campaign(1_000, 1, 5, round(starts, 60, prize("CASH", 100, 5)));
    String id = fixture.created(created);
    var budget = fixture.service.hongbao().rewards().sdk().parts().budget();
    var large =
        new Reward(
            "lent-" + id,
            "outsider",
            id,
            "bonus",
            "CASH",
            Amount.fen(600),
            "",
            starts.minusSeconds(1));
    assertThat(budget.reserve(large, Amount.fen(600), "token"))
        .isInstanceOf(RewardBudget.Reservation.Reserved.class);
    budget.release(large);
    assertThat(budgetState(id).reserved()).isEqualTo(Amount.ZERO);
    assertThat(budgetState(id).lent()).as("allowance moved between the keys").isTrue();

    var refused =
        edit(id, campaign(2_000, 1, 5, round(starts.plusSeconds(600), 60, prize("CASH", 100, 5))));
    assertError(refused, 409, "CONFLICT");

    at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(id)).isEqualTo(1_000);
  }

  /**
   * Another instance read the campaign before the edit and still holds that copy when the edit
   * commits; by the new round it serves the new version: its prizes, its limit, its time (earlier
   * than the old one, which has not started when the new round ends).
   */
  @Test
  void anInstanceHoldingTheOldCopy_servesTheNewVersion() throws Exception {
    Instant now = fixture.clock.instant();
    String id =
        fixture.created(
            campaign(10_000, 1, 10, round(now.plusSeconds(300), 60, prize("CASH", 100, 100))));
    var random = new SplittableRandom(7);
    var rain = fixture.rain();
    var other = new Campaigns(rain.store(), rain.arming(), fixture.clock, LEAD);
    var otherTaps =
        new TapService(
            other,
            rain.pools(),
            rain.issuer(),
            rain.recovery(),
            fixture.clock,
            () -> {
              synchronized (random) {
                return random.nextDouble();
              }
            });
    assertThat(otherTaps.tap(id, "edit-c-0")).isInstanceOf(TapOutcome.NotStarted.class);

    Instant starts = now.plusSeconds(200);
    var edited =
        edit(
            id,
            campaign(
                8_000, 2, 10, round(starts, 60, prize("CASH", 100, 40), prize("CASH", 50, 20))));
    assertThat(edited.status()).as(edited.raw()).isEqualTo(200);
    assertThat(other.get(id).version()).as("the other instance's copy").isEqualTo(1);

    at(starts.plusMillis(59_500));
    var wins = rain(otherTaps, id, "edit-c-", 300, 3);
    assertThat(other.get(id).version()).isEqualTo(2);
    assertThat(wins.wins()).hasSize(60);
    assertThat(amounts(wins)).isEqualTo(Map.of(100L, 40L, 50L, 20L));
    assertThat(wins.perUser().values()).allSatisfy(n -> assertThat(n.get()).isLessThanOrEqualTo(2));
    assertThat(wins.perUser().values().stream().anyMatch(n -> n.get() == 2))
        .as("the edited limit of 2, not the old 1")
        .isTrue();

    fixture.books.awaitCredited(id, 60, Duration.ofSeconds(60));
    at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(id)).isEqualTo(3_000);
    assertThat(fixture.escrow(id)).isZero();
  }

  /**
   * The edit committed but its instance died before arming (the store's edit called alone): the
   * next load of the campaign — any instance, on its refresh — arms the new version and resizes the
   * reward budget, so the round serves the edit with the larger budget.
   */
  @Test
  void aCrashBetweenCommitAndArming_healsOnTheNextLoad() throws Exception {
    Instant now = fixture.clock.instant();
    String id =
        fixture.created(
            campaign(3_000, 1, 10, round(now.plusSeconds(300), 60, prize("CASH", 100, 30))));
    Instant starts = now.plusSeconds(400);
    Campaign terms = RainFixture.editedTerms(id, 8_000, starts, 50, now);
    var edit = fixture.rain().store().edit(id, terms, fixture.clock, LEAD, () -> {});
    assertThat(edit).isInstanceOf(CampaignStore.Edit.Edited.class);
    assertThat(fixture.escrow(id)).isEqualTo(8_000);
    assertThat(budgetState(id).budget().fen()).as("not resized yet").isEqualTo(3_000);

    at(starts.plusMillis(59_500));
    var wins = rain(fixture.rain().taps(), id, "edit-d-", 200, 2);
    assertThat(wins.wins()).hasSize(50);
    assertThat(budgetState(id).budget().fen()).isEqualTo(8_000);
    assertThat(budgetState(id).reserved().fen()).isEqualTo(5_000);

    fixture.books.awaitCredited(id, 50, Duration.ofSeconds(60));
    at(starts.plusSeconds(60).plus(CampaignWiring.RETURN_GRACE).plusSeconds(1));
    assertThat(fixture.awaitReturned(id)).isEqualTo(3_000);
  }

  // ------------------------------------------------------------------------------- helpers

  /** The wins of one wave by tradeNo, and each user's count. */
  private record Wave(Map<String, TapOutcome.Won> wins, Map<String, AtomicInteger> perUser) {}

  /** {@code users} users tap from {@value #THREADS} threads, each until a miss or the limit. */
  private static Wave rain(TapService taps, String id, String prefix, int users, int tapsEach)
      throws Exception {
    var wins = new ConcurrentHashMap<String, TapOutcome.Won>();
    var perUser = new ConcurrentHashMap<String, AtomicInteger>();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      var futures = new ArrayList<Future<?>>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        futures.add(
            pool.submit(
                () -> {
                  for (int u = thread; u < users; u += THREADS) {
                    String user = prefix + u;
                    for (int i = 0; i < tapsEach; i++) {
                      if (!(taps.tap(id, user) instanceof TapOutcome.Won won)) {
                        break;
                      }
                      assertThat(wins.putIfAbsent(won.tradeNo(), won)).isNull();
                      perUser.computeIfAbsent(user, k -> new AtomicInteger()).incrementAndGet();
                    }
                  }
                }));
      }
      for (Future<?> future : futures) {
        future.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    return new Wave(wins, perUser);
  }

  /** How many prizes of each amount a wave won. */
  private static Map<Long, Long> amounts(Wave wave) {
    var counts = new java.util.TreeMap<Long, Long>();
    wave.wins().values().forEach(w -> counts.merge(w.amount(), 1L, Long::sum));
    return counts;
  }

  /** Every key of the campaign's slots, of every version (one Redis: SCAN sees them all). */
  private List<String> keysOf(String id) {
    try (var redis = RedisLink.open(fixture.service.hongbao().redisUrl())) {
      var keys = new ArrayList<String>();
      ScanArgs match = ScanArgs.Builder.matches("hb:cp:{cp:" + id + ":*").limit(1_000);
      KeyScanCursor<String> cursor = redis.sync().scan(match);
      while (true) {
        keys.addAll(cursor.getKeys());
        if (cursor.isFinished()) {
          return keys;
        }
        cursor = redis.sync().scan(cursor, match);
      }
    }
  }
}
