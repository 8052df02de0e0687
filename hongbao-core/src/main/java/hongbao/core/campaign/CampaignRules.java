package hongbao.core.campaign;

import hongbao.core.RejectedException;
import hongbao.core.Rejection;
import hongbao.core.money.Amount;
import hongbao.core.reward.RewardRules;
import hongbao.core.reward.RewardType;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

/**
 * The limits of a campaign, in one place. A draft that breaks one is refused before anything
 * changes: malformed → INVALID_REQUEST, a prize count out of range → INVALID_COUNT, an amount out
 * of range or CASH prizes that do not fit the budget → INVALID_AMOUNT.
 */
public final class CampaignRules {

  public static final int NAME_MAX_CHARS = 64;
  public static final int ROUNDS_MAX = 24;
  public static final int PRIZE_LINES_MAX = 20;
  public static final long PRIZES_PER_ROUND_MAX = 10_000_000;
  public static final long DURATION_SECONDS_MAX = 86_400;
  public static final long MAX_WINS_PER_USER_MAX = 1_000;
  public static final long TAPS_PER_SECOND_MAX = 1_000;

  /**
   * The instants a round may start at. Beyond them a round's end overflows {@link Instant} or the
   * store's timestamps, which would fail as a server error instead of refusing the request.
   */
  public static final Instant STARTS_AT_EARLIEST = Instant.parse("2000-01-01T00:00:00Z");

  public static final Instant STARTS_AT_LATEST = Instant.parse("9999-01-01T00:00:00Z");

  private CampaignRules() {}

  /**
   * The campaign the draft describes, rounds numbered in start order.
   *
   * @param isCash whether a reward type is paid from the budget
   */
  public static Campaign accept(
      String id, CampaignDraft draft, Predicate<String> isCash, Instant createdAt) {
    // Characters as people count them (code points), as greetings and passwords are counted.
    if (draft.name() == null
        || draft.name().isBlank()
        || draft.name().codePointCount(0, draft.name().length()) > NAME_MAX_CHARS) {
      throw invalid("name must be 1 to " + NAME_MAX_CHARS + " characters");
    }
    if (draft.budget() < 1 || draft.budget() > RewardRules.BUDGET_MAX) {
      throw new RejectedException(
          Rejection.INVALID_AMOUNT, "budget must be 1 to " + RewardRules.BUDGET_MAX + " fen");
    }
    if (draft.rounds() == null || draft.rounds().isEmpty() || draft.rounds().size() > ROUNDS_MAX) {
      throw invalid("a campaign has 1 to " + ROUNDS_MAX + " rounds");
    }
    within(draft.maxWinsPerUser(), MAX_WINS_PER_USER_MAX, "maxWinsPerUser");
    within(draft.tapsPerUserPerSecond(), TAPS_PER_SECOND_MAX, "tapsPerUserPerSecond");
    var sorted = new ArrayList<>(draft.rounds());
    sorted.sort(Comparator.comparing(CampaignDraft.RoundDraft::startsAt));
    var rounds = new ArrayList<Round>();
    long cash = 0;
    for (CampaignDraft.RoundDraft round : sorted) {
      within(round.durationSeconds(), DURATION_SECONDS_MAX, "durationSeconds");
      if (round.startsAt().isBefore(STARTS_AT_EARLIEST)
          || round.startsAt().isAfter(STARTS_AT_LATEST)) {
        throw invalid("startsAt must be from " + STARTS_AT_EARLIEST + " to " + STARTS_AT_LATEST);
      }
      long prizes = checkPrizes(round.prizes());
      // The store keeps microseconds: kept finer, the instant would read back as another (the same
      // PUT again would look like an edit, and other instances would load another copy).
      Instant starts = round.startsAt().truncatedTo(ChronoUnit.MICROS);
      if (!rounds.isEmpty() && starts.isBefore(rounds.getLast().endsAt())) {
        throw invalid("rounds may not overlap: round at " + starts + " starts before one ends");
      }
      cash = addCash(cash, round.prizes(), isCash);
      rounds.add(
          new Round(
              rounds.size() + 1,
              starts,
              Duration.ofSeconds(round.durationSeconds()),
              round.prizes(),
              SubPools.forPrizes(prizes)));
    }
    if (cash > draft.budget()) {
      throw new RejectedException(
          Rejection.INVALID_AMOUNT,
          "the CASH prizes come to " + cash + " fen, more than the budget " + draft.budget());
    }
    return new Campaign(
        id,
        draft.name(),
        Amount.fen(draft.budget()),
        rounds,
        (int) draft.maxWinsPerUser(),
        (int) draft.tapsPerUserPerSecond(),
        createdAt,
        1);
  }

  /** Sums the CASH prizes; a sum beyond a long is certainly beyond any budget. */
  private static long addCash(long cash, List<PrizeLine> lines, Predicate<String> isCash) {
    try {
      long sum = cash;
      for (PrizeLine line : lines) {
        if (isCash.test(line.type())) {
          sum = Math.addExact(sum, line.cashValue());
        }
      }
      return sum;
    } catch (ArithmeticException overflow) {
      throw new RejectedException(Rejection.INVALID_AMOUNT, "the CASH prizes exceed any budget");
    }
  }

  /** Checks a round's prize lines; returns how many prizes it holds. */
  private static long checkPrizes(List<PrizeLine> lines) {
    if (lines == null || lines.isEmpty() || lines.size() > PRIZE_LINES_MAX) {
      throw invalid("a round has 1 to " + PRIZE_LINES_MAX + " prize lines");
    }
    long total = 0;
    for (PrizeLine line : lines) {
      if (line.type() == null || !RewardType.NAME.matcher(line.type()).matches()) {
        throw invalid("a prize type is 1-32 characters of [A-Z0-9_]");
      }
      if (line.amount() < 1 || line.amount() > RewardRules.AMOUNT_MAX) {
        throw new RejectedException(
            Rejection.INVALID_AMOUNT, "a prize amount is 1 to " + RewardRules.AMOUNT_MAX);
      }
      if (line.count() < 1 || line.count() > PRIZES_PER_ROUND_MAX) {
        throw new RejectedException(
            Rejection.INVALID_COUNT, "a prize count is 1 to " + PRIZES_PER_ROUND_MAX);
      }
      total += line.count();
    }
    if (total > PRIZES_PER_ROUND_MAX) {
      throw new RejectedException(
          Rejection.INVALID_COUNT, "a round holds at most " + PRIZES_PER_ROUND_MAX + " prizes");
    }
    return total;
  }

  private static void within(long value, long max, String field) {
    if (value < 1 || value > max) {
      throw invalid(field + " must be 1 to " + max);
    }
  }

  private static RejectedException invalid(String message) {
    return new RejectedException(Rejection.INVALID_REQUEST, message);
  }
}
