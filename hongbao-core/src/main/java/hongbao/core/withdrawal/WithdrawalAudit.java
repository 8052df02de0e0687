package hongbao.core.withdrawal;

import hongbao.core.money.Amount;
import hongbao.core.reconcile.Audit;
import hongbao.core.withdrawal.WithdrawalBooks.Booked;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Three-way reconciliation of withdrawals: each withdrawal against the ledger postings that moved
 * its money, and against the gateway's daily statements. Every mismatch is named:
 *
 * <ul>
 *   <li>ledger: the wallet debit is not the amount; a pending withdrawal's money is not all in
 *       flight; a settled one's is not all at the gateway (SUCCEEDED) or back in the wallet
 *       (FAILED); money both paid and returned;
 *   <li>gateway: SUCCEEDED here but missing at the gateway; paid at the gateway but FAILED here;
 *       the amount differs; paid twice; paid at the gateway under an out-trade-no unknown here;
 *   <li>time: still pending long after it was requested.
 * </ul>
 *
 * It looks at withdrawals created or moved since the start of the UTC day {@code lookbackDays} ago
 * (and {@link #BOOKING_LAG} before it), and at the statements of every day the gateway may have
 * booked one of them on: from the day it was created (paid then, it may have settled here only days
 * later, after the janitor learnt it) to the day it settled here, {@link #BOOKING_LAG} later (the
 * gateway's clock may run ahead of ours, or it books a moment after it answers). A day's statement
 * is expected once the day is over, and a withdrawal is called missing at the gateway only once
 * every day it may be booked on has its statement. A pending withdrawal already paid at the gateway
 * is not a mismatch: the janitor is about to learn it.
 */
public final class WithdrawalAudit implements Audit {

  /**
   * Beyond this many withdrawals in the window, the audit says so instead of running out of heap.
   */
  public static final int WINDOW_MAX = 500_000;

  /**
   * How much later than our settling the gateway may book a payment: one settled here just before
   * midnight may be on the next day's statement.
   */
  static final Duration BOOKING_LAG = Duration.ofMinutes(10);

  /**
   * The oldest statement read, in days before today, however old a withdrawal in the window: one
   * created earlier and settled within the window is not called missing at the gateway (its first
   * day is not read), and one pending that long is reported stuck anyway. The day before the
   * longest window (31 days) is always read.
   */
  static final int STATEMENT_DAYS_MAX = 32;

  private final WithdrawalBooks books;
  private final GatewayStatements statements;
  private final Clock clock;
  private final int lookbackDays;
  private final Duration stuckAfter;

  public WithdrawalAudit(
      WithdrawalBooks books,
      GatewayStatements statements,
      Clock clock,
      int lookbackDays,
      Duration stuckAfter) {
    if (lookbackDays < 0 || lookbackDays > 31) {
      throw new IllegalArgumentException("lookbackDays " + lookbackDays + " not in 0..31");
    }
    this.books = books;
    this.statements = statements;
    this.clock = clock;
    this.lookbackDays = lookbackDays;
    this.stuckAfter = stuckAfter;
  }

  @Override
  public List<String> discrepancies() {
    Instant now = clock.instant();
    LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
    LocalDate first = today.minusDays(lookbackDays);
    List<String> problems = new ArrayList<>();
    Instant windowStart = first.atStartOfDay(ZoneOffset.UTC).toInstant();
    // Settled just before the window's midnight, one may be booked on its first day: not judged
    // until that day's statement is out, it is read from here as long as it may not have been.
    List<Booked> window = books.since(windowStart.minus(BOOKING_LAG), WINDOW_MAX);
    if (window.size() == WINDOW_MAX) {
      problems.add("withdrawals: more than " + WINDOW_MAX + " since " + first + "; checked those");
    }
    for (Booked booked : window) {
      ledgerProblem(booked).ifPresent(problems::add);
      stuck(booked, now).ifPresent(problems::add);
    }
    // Older ones still pending: stuck for days, their money in flight all the while.
    List<Booked> olderPending = books.unsettledBefore(windowStart, WINDOW_MAX);
    if (olderPending.size() == WINDOW_MAX) {
      problems.add(
          "withdrawals: more than "
              + WINDOW_MAX
              + " pending since before "
              + first
              + "; checked those");
    }
    Set<Long> inWindow = new HashSet<>();
    window.forEach(booked -> inWindow.add(booked.withdrawal().id()));
    for (Booked booked : olderPending) {
      if (inWindow.contains(booked.withdrawal().id())) {
        continue; // created before the window, moved within it: checked above
      }
      ledgerProblem(booked).ifPresent(problems::add);
      stuck(booked, now).ifPresent(problems::add);
    }
    Map<String, List<StatementLine>> gateway = new HashMap<>();
    Set<LocalDate> missing = new HashSet<>();
    Set<String> windowTradeNos = new HashSet<>();
    window.forEach(booked -> windowTradeNos.add(booked.withdrawal().outTradeNo()));
    LocalDate windowDays = first.minusDays(1);
    LocalDate oldest = windowDays;
    for (Booked booked : window) {
      LocalDate created = createdOn(booked.withdrawal());
      oldest = created.isBefore(oldest) ? created : oldest;
    }
    LocalDate read = today.minusDays(STATEMENT_DAYS_MAX);
    oldest = oldest.isBefore(read) ? read : oldest;
    for (LocalDate day = oldest; !day.isAfter(today.plusDays(1)); day = day.plusDays(1)) {
      try {
        // A day before the window's is read only for the window's withdrawals requested then:
        // its other lines are the business of the audits whose window held that day (which also
        // said so if its statement could not be read then).
        boolean windowDay = !day.isBefore(windowDays);
        for (StatementLine line : statements.statement(day)) {
          if (windowDay || windowTradeNos.contains(line.outTradeNo())) {
            gateway.computeIfAbsent(line.outTradeNo(), no -> new ArrayList<>()).add(line);
          }
        }
      } catch (StatementUnavailableException e) {
        missing.add(day);
        // A gateway gives a day's statement once the day is over: today's and tomorrow's may not
        // be out yet, which is no discrepancy. An earlier day's is.
        if (day.isBefore(today)) {
          problems.add("withdrawals: the gateway statement of " + day + " is unavailable: " + e);
        }
      }
    }
    Set<String> seen = new HashSet<>();
    for (Booked booked : window) {
      Withdrawal withdrawal = booked.withdrawal();
      seen.add(withdrawal.outTradeNo());
      gatewayProblem(
              withdrawal,
              gateway.getOrDefault(withdrawal.outTradeNo(), List.of()),
              bookingDaysCame(withdrawal, oldest, today.plusDays(1), missing))
          .ifPresent(problems::add);
    }
    for (var entry : gateway.entrySet()) {
      if (seen.contains(entry.getKey())) {
        continue;
      }
      // Settled at the gateway within the window, requested before it: look it up.
      var older = books.byOutTradeNo(entry.getKey());
      if (older.isEmpty()) {
        if (entry.getValue().stream().anyMatch(StatementLine::paid)) {
          problems.add(
              "out-trade-no %s: paid at the gateway but unknown here".formatted(entry.getKey()));
        }
        continue;
      }
      ledgerProblem(older.get()).ifPresent(problems::add);
      Withdrawal withdrawal = older.get().withdrawal();
      gatewayProblem(
              withdrawal,
              entry.getValue(),
              bookingDaysCame(withdrawal, oldest, today.plusDays(1), missing))
          .ifPresent(problems::add);
    }
    return problems;
  }

  private static Optional<String> ledgerProblem(Booked booked) {
    Withdrawal w = booked.withdrawal();
    Amount zero = Amount.ZERO;
    boolean expected =
        booked.debited().equals(w.amount())
            && switch (w.status()) {
              case REQUESTED, SENT, UNKNOWN ->
                  booked.inFlight().equals(w.amount())
                      && booked.paid().equals(zero)
                      && booked.returned().equals(zero);
              case SUCCEEDED ->
                  booked.paid().equals(w.amount())
                      && booked.inFlight().equals(zero)
                      && booked.returned().equals(zero);
              case FAILED ->
                  booked.returned().equals(w.amount())
                      && booked.inFlight().equals(zero)
                      && booked.paid().equals(zero);
            };
    if (expected) {
      return Optional.empty();
    }
    return Optional.of(
        "%s: amount %s but the ledger debited %s, holds %s in flight, paid %s, returned %s"
            .formatted(
                name(w),
                w.amount(),
                booked.debited(),
                booked.inFlight(),
                booked.paid(),
                booked.returned()));
  }

  private Optional<String> stuck(Booked booked, Instant now) {
    Withdrawal w = booked.withdrawal();
    if (w.status().settled() || w.createdAt().plus(stuckAfter).isAfter(now)) {
      return Optional.empty();
    }
    return Optional.of(
        "%s: still pending since %s (last: %s)".formatted(name(w), w.createdAt(), w.cause()));
  }

  private static LocalDate createdOn(Withdrawal w) {
    return LocalDate.ofInstant(w.createdAt(), ZoneOffset.UTC);
  }

  /** The last day the gateway may book a withdrawal on: {@link #BOOKING_LAG} after it settled. */
  private static LocalDate lastBookingDay(Withdrawal w) {
    return LocalDate.ofInstant(w.updatedAt().plus(BOOKING_LAG), ZoneOffset.UTC);
  }

  /**
   * Whether the statement of every day (UTC) the gateway may have booked the withdrawal on was
   * read: from the day it was created to the day it reached its status here, {@link #BOOKING_LAG}
   * later. A day outside the days read ({@code from} to {@code to}) did not come.
   */
  private static boolean bookingDaysCame(
      Withdrawal w, LocalDate from, LocalDate to, Set<LocalDate> missing) {
    LocalDate last = lastBookingDay(w);
    if (createdOn(w).isBefore(from) || last.isAfter(to)) {
      return false;
    }
    for (LocalDate day = createdOn(w); !day.isAfter(last); day = day.plusDays(1)) {
      if (missing.contains(day)) {
        return false;
      }
    }
    return true;
  }

  /**
   * What the gateway's statement says against this withdrawal. A payment the statements show is a
   * fact whichever days are missing; a payment they do not show says something only once the
   * statement of every day it may be booked on has come (until then it may be there).
   */
  private static Optional<String> gatewayProblem(
      Withdrawal w, List<StatementLine> lines, boolean itsDaysCame) {
    List<StatementLine> paid = lines.stream().filter(StatementLine::paid).toList();
    if (paid.size() > 1) {
      return Optional.of("%s: paid %d times at the gateway".formatted(name(w), paid.size()));
    }
    if (paid.isEmpty()) {
      if (w.status() != WithdrawalStatus.SUCCEEDED || !itsDaysCame) {
        return Optional.empty();
      }
      return Optional.of(
          lines.isEmpty()
              ? "%s: SUCCEEDED here but missing at the gateway".formatted(name(w))
              : "%s: SUCCEEDED here but FAILED at the gateway".formatted(name(w)));
    }
    StatementLine line = paid.getFirst();
    LocalDate booked = LocalDate.ofInstant(line.at(), ZoneOffset.UTC);
    if (w.status() == WithdrawalStatus.SUCCEEDED && booked.isAfter(lastBookingDay(w))) {
      // Its payment cannot be booked this late: a second one, whose first is on a day not read.
      return Optional.of(
          "%s: paid at the gateway on %s, after it settled here on %s"
              .formatted(name(w), booked, LocalDate.ofInstant(w.updatedAt(), ZoneOffset.UTC)));
    }
    if (w.status() == WithdrawalStatus.FAILED) {
      return Optional.of(
          "%s: paid %s at the gateway but FAILED here".formatted(name(w), line.amount()));
    }
    if (!line.amount().equals(w.amount())) {
      return Optional.of(
          "%s: amount differs: %s here, %s paid at the gateway"
              .formatted(name(w), w.amount(), line.amount()));
    }
    return Optional.empty();
  }

  private static String name(Withdrawal w) {
    return "withdrawal %d (%s, %s)".formatted(w.id(), w.outTradeNo(), w.status());
  }
}
