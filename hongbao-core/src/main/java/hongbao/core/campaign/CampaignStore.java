package hongbao.core.campaign;

import hongbao.core.ledger.IdempotencyKey;
import hongbao.core.ledger.StoredAnswer;
import hongbao.core.money.Amount;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** Port: campaigns in the database, with their escrow in the ledger. */
public interface CampaignStore {

  /** A fresh number for a campaign id. */
  long nextNumber();

  /**
   * In one transaction: stores the idempotency key with {@code answer}, the campaign and its
   * rounds, and moves the budget from the system account into the campaign's escrow.
   *
   * @throws hongbao.core.ledger.IdempotencyRaceException when a concurrent request took the key
   * @throws IdTaken when a reward campaign opened by hand holds the id (nothing was written)
   */
  void create(Campaign campaign, IdempotencyKey key, StoredAnswer answer);

  /** The campaign id is a reward campaign's already: the caller draws another id. */
  final class IdTaken extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public IdTaken(String id) {
      super("campaign id " + id + " is taken by a reward campaign", null, false, false);
    }
  }

  Optional<StoredAnswer> answerFor(IdempotencyKey key);

  /** The campaign created under an idempotency key. */
  Optional<String> createdUnder(IdempotencyKey key);

  /**
   * The campaign's current version, read while its row is locked for share: an edit in flight is
   * waited for, and none can commit while the read runs (see {@link Campaigns}).
   */
  Optional<Campaign> find(String id);

  /**
   * Replaces campaign {@code id}'s terms with {@code terms}' in one transaction: locks the row for
   * update, then — on {@code clock}, read once the lock is held, so that a read holding the row for
   * share is ordered before the check — refuses unless now is before the current first round's
   * start less {@code lead} and {@code terms} start no sooner than now plus {@code lead}; replaces
   * the rounds and prizes, raises the version, moves the difference of the budgets between the
   * system account and the escrow (transfer {@code campaign-edit:<id>:<version>}, kind CAMPAIGN,
   * either way) and sets the reward campaign's budget. Terms equal to the current ones change
   * nothing. {@code beforeCommit} runs last inside the transaction of an edit that changes the
   * terms; what it throws rolls the edit back.
   */
  Edit edit(
      String id,
      Campaign terms,
      java.time.Clock clock,
      java.time.Duration lead,
      Runnable beforeCommit);

  /** What an edit found. */
  sealed interface Edit {
    /** Version {@code after} replaced version {@code before}. */
    record Edited(Campaign before, Campaign after) implements Edit {}

    /** The terms were the current ones already (a repeated PUT): nothing changed. */
    record Unchanged(Campaign current) implements Edit {}

    /** Running, ended, starting within the lead, or the new terms would: nothing changed. */
    record TooLate(String why) implements Edit {}

    record NotFound() implements Edit {}
  }

  /** Campaigns whose unspent budget has not gone back yet, oldest first, at most {@code max}. */
  List<String> unreturned(int max);

  /**
   * Campaigns whose unspent budget has not gone back yet, in id order after {@code afterId} (empty
   * for the first page), at most {@code max}: for a pass that must see every one of them.
   */
  List<String> unreturnedAfter(String afterId, int max);

  /** Every campaign, newest first, at most {@code max}: for the reconciler. */
  List<String> recent(int max);

  /**
   * Moves {@code amount} from the campaign's escrow back to the system account and marks the
   * campaign returned, in one transaction, once: a second call (another instance) does nothing.
   *
   * @return true if this call returned it
   * @throws EscrowShort when the escrow holds less than {@code amount} (nothing was written)
   */
  boolean returnUnspent(String id, Amount amount, Instant at);

  /**
   * The escrow holds less than the return: a credit landed after the return was computed (the
   * reward of a trade Redis lost, credited while the campaign was closed). The caller computes the
   * return again on its next pass.
   */
  final class EscrowShort extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public EscrowShort(String id, Amount amount) {
      super("campaign " + id + ": its escrow holds less than the return of " + amount);
    }
  }

  /** What went back to the funding account and when, once the campaign was returned. */
  Optional<Return> returned(String id);

  /** The unspent budget as it went back. */
  record Return(Amount amount, Instant at) {}
}
