package hongbao.core.reward;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import java.lang.reflect.Proxy;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The reward books are read one after the other, not in one snapshot, while rewards are credited: a
 * credit landing between two reads must not make a campaign look off, and what is off on every
 * reading is reported once.
 */
class RewardAuditTest {

  private static final Instant NOW = Instant.parse("2026-11-21T08:00:00Z");
  private static final Reward CREDITED =
      new Reward("t1", "u1", "c1", "rain", "CASH", Amount.fen(100), "", NOW);
  private static final Map<String, RewardBudget.Trade> ACCEPTED =
      Map.of("t1", new RewardBudget.Trade(CREDITED.digest(), Amount.fen(100), NOW.toEpochMilli()));

  /**
   * Budget keys holding the one reservation of {@link #CREDITED}; their trade records read as
   * {@code trades} says, one reading after another (the last one from then on).
   */
  private static RewardBudget keys(List<Map<String, RewardBudget.Trade>> trades) {
    return keys(Amount.fen(100), trades);
  }

  /** As {@link #keys(List)}, the keys holding {@code reserved}. */
  private static RewardBudget keys(Amount reserved, List<Map<String, RewardBudget.Trade>> trades) {
    var readings = new AtomicInteger();
    return (RewardBudget)
        Proxy.newProxyInstance(
            RewardBudget.class.getClassLoader(),
            new Class<?>[] {RewardBudget.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "state" ->
                      new RewardBudget.BudgetState(
                          Amount.fen(1_000), reserved, Amount.fen(1_000), false);
                  case "trades" ->
                      trades.get(Math.min(readings.getAndIncrement(), trades.size() - 1));
                  default -> throw new AssertionError("unexpected " + method.getName());
                });
  }

  private static <T> T nth(T[] readings, int i) {
    return readings[Math.min(i, readings.length - 1)];
  }

  private static RewardBook.CampaignBooks books(long credited) {
    return new RewardBook.CampaignBooks(
        "c1", Amount.fen(1_000), Amount.fen(1_000 - credited), Amount.fen(credited), Amount.ZERO);
  }

  /**
   * The books of {@link #CREDITED}, credited in the reward book; the ledger's sum of cash credited
   * reads as {@code credited} says, one reading after another (the last one from then on).
   */
  private static RewardAudit auditOf(RewardBudget keys, Long... credited) {
    var readings = new AtomicInteger();
    RewardBook book =
        RewardDoubles.bookAnswering(
            Map.of(
                "campaigns",
                args -> List.of(books(nth(credited, readings.getAndIncrement()))),
                "campaign",
                args -> Optional.of(books(nth(credited, readings.getAndIncrement()))),
                "byCampaign",
                args ->
                    List.of(
                        new RewardRecord(
                            CREDITED,
                            CREDITED.digest(),
                            RewardKind.CASH,
                            RewardRecord.Status.CREDITED,
                            NOW,
                            null)),
                "problems",
                args -> List.of()));
    return audit(book, keys);
  }

  /** The audit of {@code book} and {@code keys}, no failures, at {@link #NOW}. */
  private static RewardAudit audit(RewardBook book, RewardBudget keys) {
    return new RewardAudit(
        book,
        keys,
        new RewardDoubles.NoFailures(),
        Clock.fixed(NOW, ZoneOffset.UTC),
        Duration.ofMinutes(5));
  }

  /**
   * A campaign credited without pause: each time its rewards are read, one more credit has landed
   * since its ledger sum was read. Compared with the sum read before them, the rows were over it on
   * every reading.
   */
  @Test
  void creditsLandingWhileTheBooksAreRead_areNoDiscrepancy_onEveryReading() {
    var rowsRead = new AtomicInteger();
    var trades = new HashMap<String, RewardBudget.Trade>();
    for (int n = 1; n <= 10; n++) {
      trades.put(
          "t" + n, new RewardBudget.Trade(reward(n).digest(), Amount.fen(100), NOW.toEpochMilli()));
    }
    RewardBook book =
        RewardDoubles.bookAnswering(
            Map.of(
                "campaigns",
                args -> List.of(books(100L * rowsRead.get())),
                "campaign",
                args -> Optional.of(books(100L * rowsRead.get())),
                "byCampaign",
                args -> {
                  int credited = rowsRead.incrementAndGet(); // one more landed just now
                  var rows = new ArrayList<RewardRecord>();
                  for (int n = 1; n <= credited; n++) {
                    rows.add(
                        new RewardRecord(
                            reward(n),
                            reward(n).digest(),
                            RewardKind.CASH,
                            RewardRecord.Status.CREDITED,
                            NOW,
                            null));
                  }
                  return rows;
                },
                "problems",
                args -> List.of()));
    RewardBudget keys = keys(Amount.fen(1_000), List.of(trades));

    var audit = audit(book, keys);

    assertThat(audit.discrepancies()).isEmpty();
  }

  /**
   * A campaign reserving without pause: a reservation (and its trade) lands before every read of
   * the budget keys, so the trades never cost what the sum read before them says, on any reading.
   */
  @Test
  void reservationsLandingWhileTheBudgetIsRead_areNoDiscrepancy_onEveryReading() {
    var landed = new AtomicInteger();
    RewardBudget keys =
        (RewardBudget)
            Proxy.newProxyInstance(
                RewardBudget.class.getClassLoader(),
                new Class<?>[] {RewardBudget.class},
                (proxy, method, args) -> {
                  int n = landed.incrementAndGet();
                  return switch (method.getName()) {
                    case "state" ->
                        new RewardBudget.BudgetState(
                            Amount.fen(1_000_000),
                            Amount.fen(100L * n),
                            Amount.fen(1_000_000),
                            false);
                    case "trades" -> {
                      var trades = new HashMap<String, RewardBudget.Trade>();
                      for (int t = 1; t <= n; t++) {
                        trades.put(
                            "t" + t,
                            new RewardBudget.Trade(
                                reward(t).digest(), Amount.fen(100), NOW.toEpochMilli()));
                      }
                      yield trades;
                    }
                    default -> throw new AssertionError("unexpected " + method.getName());
                  };
                });
    var fundedOnly =
        new RewardBook.CampaignBooks(
            "c1", Amount.fen(1_000_000), Amount.fen(1_000_000), Amount.ZERO, Amount.ZERO);
    RewardBook book =
        RewardDoubles.bookAnswering(
            Map.of(
                "campaigns", args -> List.of(fundedOnly),
                "campaign", args -> Optional.of(fundedOnly),
                "byCampaign", args -> List.of(),
                "problems", args -> List.of()));
    var audit = audit(book, keys);

    assertThat(audit.discrepancies()).isEmpty();
    assertThat(landed).as("one reading: the sum, the trades, the sum again").hasValue(3);
  }

  private static Reward reward(int n) {
    return new Reward("t" + n, "u" + n, "c1", "rain", "CASH", Amount.fen(100), "", NOW);
  }

  @Test
  void aSyncRewardReservedAndCreditedAfterTheTradesWereRead_isNoDiscrepancy() {
    assertThat(auditOf(keys(List.of(Map.of(), ACCEPTED)), 100L).discrepancies()).isEmpty();
  }

  @Test
  void booksThatDisagreeOnEveryReading_areReportedOnce() {
    assertThat(auditOf(keys(List.of(ACCEPTED)), 0L).discrepancies())
        .containsExactly("campaign c1: the ledger credited 0 fen but the reward book 100 fen");
    assertThat(auditOf(keys(List.of(Map.of())), 100L).discrepancies())
        .containsExactly(notReserved(), "reward t1: credited but never accepted");
  }

  private static String notReserved() {
    return "campaign c1: reserved 100 fen but its accepted rewards cost 0 fen";
  }
}
