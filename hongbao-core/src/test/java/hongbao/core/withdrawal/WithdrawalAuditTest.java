package hongbao.core.withdrawal;

import static org.assertj.core.api.Assertions.assertThat;

import hongbao.core.money.Amount;
import hongbao.core.withdrawal.WithdrawalBooks.Booked;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The three-way audit against hand-built books: it names each kind of mismatch, or proves none. */
class WithdrawalAuditTest {

  private static final Instant NOW = Instant.parse("2026-11-21T08:00:00Z");
  private static final Amount A = Amount.fen(500);
  private static final Amount ZERO = Amount.ZERO;

  private final List<Booked> booked = new ArrayList<>();
  private final List<StatementLine> statement = new ArrayList<>();
  private final List<Booked> older = new ArrayList<>();
  private boolean statementDown;
  private LocalDate dayDown;

  private final WithdrawalBooks books =
      new WithdrawalBooks() {
        @Override
        public List<Booked> since(Instant since, int limit) {
          return booked.stream()
              .filter(
                  b ->
                      !b.withdrawal().createdAt().isBefore(since)
                          || !b.withdrawal().updatedAt().isBefore(since))
              .toList();
        }

        @Override
        public List<Booked> unsettledBefore(Instant before, int limit) {
          return booked.stream()
              .filter(b -> !b.withdrawal().status().settled())
              .filter(b -> b.withdrawal().createdAt().isBefore(before))
              .toList();
        }

        @Override
        public Optional<Booked> byOutTradeNo(String outTradeNo) {
          return older.stream()
              .filter(b -> b.withdrawal().outTradeNo().equals(outTradeNo))
              .findFirst();
        }
      };

  private final GatewayStatements statements =
      day -> {
        if (statementDown || day.equals(dayDown)) {
          throw new StatementUnavailableException("down", null);
        }
        return statement.stream()
            .filter(l -> LocalDate.ofInstant(l.at(), ZoneOffset.UTC).equals(day))
            .toList();
      };

  private final WithdrawalAudit audit =
      new WithdrawalAudit(
          books, statements, java.time.Clock.fixed(NOW, ZoneOffset.UTC), 1, Duration.ofHours(1));

  private static Withdrawal withdrawal(long id, WithdrawalStatus status, Instant created) {
    return new Withdrawal(
        id, "alice", A, Withdrawal.outTradeNo(id, 0), status, null, "x", 1, 0, 0, created, created);
  }

  private Withdrawal add(long id, WithdrawalStatus status) {
    Withdrawal w = withdrawal(id, status, NOW.minusSeconds(60));
    Amount paid = status == WithdrawalStatus.SUCCEEDED ? A : ZERO;
    Amount returned = status == WithdrawalStatus.FAILED ? A : ZERO;
    Amount inFlight = status.settled() ? ZERO : A;
    booked.add(new Booked(w, A, paid, returned, inFlight));
    return w;
  }

  /** A SUCCEEDED withdrawal, its books consistent, in the window's books. */
  private Withdrawal settled(long id, Instant created, Instant settled) {
    Withdrawal w = succeeded(id, created, settled);
    booked.add(new Booked(w, A, A, ZERO, ZERO));
    return w;
  }

  private static Withdrawal succeeded(long id, Instant created, Instant settled) {
    return new Withdrawal(
        id,
        "alice",
        A,
        Withdrawal.outTradeNo(id, 0),
        WithdrawalStatus.SUCCEEDED,
        "G-" + id,
        "x",
        1,
        0,
        0,
        created,
        settled);
  }

  private void paidAtGateway(Withdrawal w, Amount amount) {
    statement.add(new StatementLine(w.outTradeNo(), amount, true, NOW.minusSeconds(30)));
  }

  @Test
  void consistentBooks_haveNoDiscrepancies() {
    paidAtGateway(add(1, WithdrawalStatus.SUCCEEDED), A);
    Withdrawal failed = add(2, WithdrawalStatus.FAILED);
    statement.add(new StatementLine(failed.outTradeNo(), A, false, NOW));
    add(3, WithdrawalStatus.FAILED); // gave up after retryable refusals: unknown to the gateway
    paidAtGateway(add(4, WithdrawalStatus.UNKNOWN), A); // the janitor is about to learn it
    add(5, WithdrawalStatus.REQUESTED);

    assertThat(audit.discrepancies()).isEmpty();
  }

  @Test
  void eachGatewayMismatch_isNamed() {
    add(1, WithdrawalStatus.SUCCEEDED);
    paidAtGateway(add(2, WithdrawalStatus.FAILED), A);
    paidAtGateway(add(3, WithdrawalStatus.SUCCEEDED), Amount.fen(499));
    Withdrawal twice = add(4, WithdrawalStatus.SUCCEEDED);
    paidAtGateway(twice, A);
    paidAtGateway(twice, A);
    statement.add(new StatementLine("STRANGER", A, true, NOW));

    assertThat(audit.discrepancies())
        .containsExactlyInAnyOrder(
            "withdrawal 1 (HBW000000000000000100000000, SUCCEEDED): SUCCEEDED here but missing at the"
                + " gateway",
            "withdrawal 2 (HBW000000000000000200000000, FAILED): paid 500 fen at the gateway but FAILED"
                + " here",
            "withdrawal 3 (HBW000000000000000300000000, SUCCEEDED): amount differs: 500 fen here, 499 fen"
                + " paid at the gateway",
            "withdrawal 4 (HBW000000000000000400000000, SUCCEEDED): paid 2 times at the gateway",
            "out-trade-no STRANGER: paid at the gateway but unknown here");
  }

  @Test
  void ledgerMismatches_andStuckWithdrawals_areNamed() {
    Withdrawal w = withdrawal(1, WithdrawalStatus.SUCCEEDED, NOW.minusSeconds(60));
    booked.add(new Booked(w, A, A, A, ZERO)); // paid and returned
    paidAtGateway(w, A);
    Withdrawal stuck = withdrawal(2, WithdrawalStatus.UNKNOWN, NOW.minus(Duration.ofHours(2)));
    booked.add(new Booked(stuck, A, ZERO, ZERO, A));

    assertThat(audit.discrepancies())
        .containsExactlyInAnyOrder(
            "withdrawal 1 (HBW000000000000000100000000, SUCCEEDED): amount 500 fen but the ledger debited"
                + " 500 fen, holds 0 fen in flight, paid 500 fen, returned 500 fen",
            "withdrawal 2 (HBW000000000000000200000000, UNKNOWN): still pending since"
                + " 2026-11-21T06:00:00Z (last: x)");
  }

  @Test
  void aWithdrawalRequestedBeforeTheWindow_isLookedUpByItsOutTradeNo() {
    Withdrawal old = withdrawal(9, WithdrawalStatus.FAILED, NOW.minus(Duration.ofDays(5)));
    older.add(new Booked(old, A, ZERO, A, ZERO));
    paidAtGateway(old, A);

    assertThat(audit.discrepancies())
        .containsExactly(
            "withdrawal 9 (HBW000000000000000900000000, FAILED): paid 500 fen at the gateway but FAILED"
                + " here");
  }

  /**
   * The audit's window starts yesterday (UTC); a withdrawal still pending from before it, its money
   * in flight and the gateway silent about it, is reported as stuck for as long as it stays so.
   */
  @Test
  void aWithdrawalStillPending_fromBeforeTheWindow_isStillReportedStuck() {
    Withdrawal stuck = withdrawal(7, WithdrawalStatus.UNKNOWN, NOW.minus(Duration.ofDays(3)));
    Booked stuckBooks = new Booked(stuck, A, ZERO, ZERO, A);
    older.add(stuckBooks); // the books know it by its out-trade-no
    booked.add(stuckBooks); // and by its creation time (outside the window)

    assertThat(audit.discrepancies())
        .as("400 fen in flight for three days")
        .anyMatch(line -> line.contains("withdrawal 7"));
  }

  @Test
  void anUnavailableStatement_isReported_notGuessedAround() {
    add(1, WithdrawalStatus.SUCCEEDED);
    statementDown = true;

    assertThat(audit.discrepancies())
        .as("the days read that are over; what settled today is not called missing")
        .hasSize(2)
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("withdrawals: the gateway statement of 2026-11-19 is unavailable"))
        .anySatisfy(
            line ->
                assertThat(line)
                    .startsWith("withdrawals: the gateway statement of 2026-11-20 is unavailable"));
  }

  /**
   * Gateways give a day's statement once the day is over. Tomorrow's not being out is no
   * discrepancy, and the days that came are compared: today's shows withdrawal 1 paid though it
   * FAILED here, and does not show withdrawal 2, SUCCEEDED today.
   */
  @Test
  void aDayNotYetOver_isNotReported_andTheDaysThatCameAreCompared() {
    paidAtGateway(add(1, WithdrawalStatus.FAILED), A);
    add(2, WithdrawalStatus.SUCCEEDED);
    dayDown = LocalDate.ofInstant(NOW, ZoneOffset.UTC).plusDays(1);

    assertThat(audit.discrepancies())
        .containsExactlyInAnyOrder(
            "withdrawal 1 ("
                + Withdrawal.outTradeNo(1, 0)
                + ", FAILED): paid 500 fen at the gateway but FAILED here",
            "withdrawal 2 ("
                + Withdrawal.outTradeNo(2, 0)
                + ", SUCCEEDED): SUCCEEDED here but missing at the gateway");
  }

  /**
   * Today's statement is not out yet: what settled today is not judged missing from it, while the
   * payments yesterday's shows are still checked.
   */
  @Test
  void aWithdrawalSettledOnADayWhoseStatementIsNotOut_isNotCalledMissing() {
    add(2, WithdrawalStatus.SUCCEEDED);
    Withdrawal yesterday = withdrawal(3, WithdrawalStatus.FAILED, NOW.minus(Duration.ofDays(1)));
    booked.add(new Booked(yesterday, A, ZERO, A, ZERO));
    statement.add(
        new StatementLine(yesterday.outTradeNo(), A, true, NOW.minus(Duration.ofDays(1))));
    dayDown = LocalDate.ofInstant(NOW, ZoneOffset.UTC);

    assertThat(audit.discrepancies())
        .containsExactly(
            "withdrawal 3 ("
                + yesterday.outTradeNo()
                + ", FAILED): paid 500 fen at the gateway but FAILED here");
  }

  /**
   * Created the day before the audit's window, settled within it (a late night, or an answer the
   * janitor found hours later): it is compared with the statement of the day it settled, which does
   * not list it.
   */
  @Test
  void aWithdrawalCreatedBeforeTheWindowAndSettledWithinIt_isJudgedByItsSettleDay() {
    Withdrawal late =
        settled(4, Instant.parse("2026-11-19T23:50:00Z"), Instant.parse("2026-11-20T02:00:00Z"));

    assertThat(audit.discrepancies())
        .containsExactly(
            "withdrawal 4 ("
                + late.outTradeNo()
                + ", SUCCEEDED): SUCCEEDED here but missing at the gateway");

    // Paid on the day it was created, before the window: the statement of that day is read too.
    statement.add(
        new StatementLine(late.outTradeNo(), A, true, Instant.parse("2026-11-19T23:55:00Z")));
    assertThat(audit.discrepancies()).isEmpty();
  }

  /** Requested before the window and moved within it, a pending withdrawal is reported once. */
  @Test
  void aPendingWithdrawalMovedWithinTheWindow_isReportedOnce() {
    Withdrawal pending =
        new Withdrawal(
            5,
            "alice",
            A,
            Withdrawal.outTradeNo(5, 0),
            WithdrawalStatus.UNKNOWN,
            null,
            "x",
            1,
            0,
            1,
            Instant.parse("2026-11-19T10:00:00Z"),
            NOW.minusSeconds(600));
    booked.add(new Booked(pending, A, ZERO, ZERO, A));

    assertThat(audit.discrepancies())
        .singleElement()
        .asString()
        .startsWith("withdrawal 5 (" + pending.outTradeNo() + ", UNKNOWN): still pending since");
  }

  /**
   * Settled here two seconds before midnight, booked by the gateway a second after it: the settle
   * day's statement does not list it, the next day's does. Until that one is out it is not called
   * missing; the day after, still in the audit's window, it is judged against both.
   */
  @Test
  void aWithdrawalSettledJustBeforeMidnight_isLookedForOnTheNextDaysStatementToo() {
    Withdrawal late =
        settled(5, Instant.parse("2026-11-20T23:59:00Z"), Instant.parse("2026-11-20T23:59:58Z"));
    dayDown = LocalDate.ofInstant(NOW, ZoneOffset.UTC);

    assertThat(audit.discrepancies()).isEmpty();

    Instant tomorrow = NOW.plus(Duration.ofDays(1));
    var nextDay =
        new WithdrawalAudit(
            books,
            statements,
            java.time.Clock.fixed(tomorrow, ZoneOffset.UTC),
            1,
            Duration.ofHours(1));
    dayDown = null;
    assertThat(nextDay.discrepancies())
        .containsExactly(
            "withdrawal 5 ("
                + late.outTradeNo()
                + ", SUCCEEDED): SUCCEEDED here but missing at the gateway");
    statement.add(
        new StatementLine(late.outTradeNo(), A, true, Instant.parse("2026-11-21T00:00:01Z")));
    assertThat(nextDay.discrepancies()).isEmpty();
  }

  /**
   * In doubt for days (its answers lost, the gateway silent), paid by the gateway on the day it was
   * requested, settled here today: that day's statement, long before the window, is read.
   */
  @Test
  void aWithdrawalInDoubtForDays_isLookedForOnTheStatementOfTheDayItWasRequested() {
    Instant requested = Instant.parse("2026-11-16T10:00:00Z");
    Withdrawal doubted = settled(6, requested, NOW.minusSeconds(60));
    statement.add(new StatementLine(doubted.outTradeNo(), A, true, requested.plusSeconds(1)));

    assertThat(audit.discrepancies()).isEmpty();
  }

  /**
   * The statement of a day before the window, read for a withdrawal requested then, is not judged
   * again as a whole: its other lines, an unknown payment among them, were the business of the
   * audits whose window held that day, and are not each looked up here.
   */
  @Test
  void aDayBeforeTheWindow_isReadOnlyForTheWindowsWithdrawals() {
    Instant requested = Instant.parse("2026-11-16T10:00:00Z");
    Withdrawal doubted = settled(6, requested, NOW.minusSeconds(60));
    statement.add(new StatementLine(doubted.outTradeNo(), A, true, requested.plusSeconds(1)));
    statement.add(new StatementLine("W-someone-else", A, true, requested.plusSeconds(2)));
    Withdrawal earlier = withdrawal(7, WithdrawalStatus.SUCCEEDED, requested);
    older.add(new Booked(earlier, A, A, ZERO, ZERO));
    statement.add(new StatementLine(earlier.outTradeNo(), Amount.fen(1), true, requested));

    assertThat(audit.discrepancies()).isEmpty();

    statement.add(new StatementLine("W-unknown-today", A, true, NOW.minusSeconds(30)));
    assertThat(audit.discrepancies())
        .containsExactly("out-trade-no W-unknown-today: paid at the gateway but unknown here");
  }

  /**
   * Settled days before the window, its payment on a day the audit no longer reads, and paid again
   * within the window: the second payment is booked after the last day the first could be, and is
   * named as such.
   */
  @Test
  void aSecondPaymentWithinTheWindow_ofOneSettledBeforeIt_isNamed() {
    Instant requested = Instant.parse("2026-11-16T10:00:00Z");
    Withdrawal w = succeeded(8, requested, requested.plusSeconds(30));
    older.add(new Booked(w, A, A, ZERO, ZERO));
    statement.add(new StatementLine(w.outTradeNo(), A, true, requested.plusSeconds(1)));
    statement.add(new StatementLine(w.outTradeNo(), A, true, NOW.minus(Duration.ofHours(20))));

    assertThat(audit.discrepancies())
        .containsExactly(
            "withdrawal 8 (%s, SUCCEEDED): paid at the gateway on 2026-11-20, after it settled here on 2026-11-16"
                .formatted(w.outTradeNo()));
  }
}
