package hongbao.core.reward;

import hongbao.core.Invariants;
import hongbao.core.Unavailable;
import java.lang.System.Logger.Level;
import java.util.Optional;

/**
 * Credits one reward, exactly once whoever asks (a queued event, its redelivery, a forced credit,
 * the synchronous API): the reward book holds one row per tradeNo, written in the same transaction
 * as the money (CASH) or the coupon (built-in book), or right after an idempotent HTTP issuer said
 * yes. The server's token copy is dropped once the reward is settled: credited, or refused for good
 * by its issuer.
 */
public final class RewardService {

  private static final System.Logger LOG = System.getLogger(RewardService.class.getName());

  private final RewardBook book;
  private final Issuer issuer;
  private final TokenStore tokenStore;
  private final RewardMetrics metrics;
  private final CashCredits cash;

  public RewardService(
      RewardBook book, Issuer issuer, TokenStore tokenStore, RewardMetrics metrics) {
    this.book = book;
    this.issuer = issuer;
    this.tokenStore = tokenStore;
    this.metrics = metrics;
    this.cash = new CashCredits(book, 500);
  }

  /**
   * What must let a credit through right before it is issued: the type's rate limit. Passing it as
   * late as possible (after the book was asked whether the reward is done) keeps the time between
   * taking a token and reaching the issuer short, so the issuer sees the rate the bucket allowed.
   */
  @FunctionalInterface
  public interface Gate {
    void pass() throws InterruptedException;

    Gate OPEN = () -> {};
  }

  /**
   * Credits without a gate: forced credits are not rate limited, and a synchronous send has taken
   * its type's token before it calls this.
   *
   * @throws Issuer.IssuerUnavailable or a database failure: try again later
   */
  public CreditOutcome credit(Reward reward, RewardType type) {
    try {
      return credit(reward, type, Gate.OPEN);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while crediting " + reward.tradeNo(), e);
    }
  }

  /**
   * Credits once {@code gate} lets it through.
   *
   * @throws Issuer.IssuerUnavailable or a database failure: try again later
   */
  public CreditOutcome credit(Reward reward, RewardType type, Gate gate)
      throws InterruptedException {
    Invariants.check(
        type.type().equals(reward.type()), "reward %s is not of type %s", reward, type.type());
    String digest = reward.digest();
    CreditOutcome outcome =
        type.kind() == RewardKind.CASH
            ? creditCash(reward, digest, gate)
            : issue(reward, type, digest, gate);
    if (outcome instanceof CreditOutcome.Credited) {
      forgetToken(reward);
    }
    return outcome;
  }

  private CreditOutcome creditCash(Reward reward, String digest, Gate gate)
      throws InterruptedException {
    gate.pass();
    return switch (cash.credit(reward)) {
      case DONE -> {
        metrics.issued(reward.type());
        yield new CreditOutcome.Credited(true);
      }
      case ALREADY -> settledBefore(reward.tradeNo());
      case CONFLICT -> new CreditOutcome.Conflict();
      case UNPAYABLE -> {
        LOG.log(
            Level.ERROR,
            "campaign {0}''s escrow cannot pay reward {1} of {2}: its budget lost reservations",
            reward.campaignId(),
            reward.tradeNo(),
            reward.amount());
        yield new CreditOutcome.Refused(
            "the campaign's escrow holds less than the reward (its budget lost reservations)");
      }
    };
  }

  private CreditOutcome issue(Reward reward, RewardType type, String digest, Gate gate)
      throws InterruptedException {
    Optional<RewardRecord> before = book.find(reward.tradeNo());
    if (before.isPresent()) {
      return before.get().digest().equals(digest)
          ? settled(before.get())
          : new CreditOutcome.Conflict();
    }
    gate.pass();
    if (type.issuerUrl() == null) {
      return recorded(reward, book.recordIssued(reward, digest, type.kind(), true));
    }
    return switch (issuer.issue(reward, type)) {
      case Issuer.Issue.Issued issued -> recordedOnceIssued(reward, type, digest);
      case Issuer.Issue.Refused refused -> {
        book.recordFailed(reward, digest, type.kind(), refused.reason());
        // Settled for good, as a credited reward is: its copy would only crowd a user's pending.
        forgetToken(reward);
        yield new CreditOutcome.Refused(refused.reason());
      }
    };
  }

  /**
   * The issuer has issued: the reward exists downstream whatever the book says now. A failure that
   * keeps the book from recording it must not read as "nothing issued", or a synchronous send would
   * give its budget back and answer ISSUER_FAILED for a live coupon: it is {@link
   * IssuedUnrecorded}, and a replay of the tradeNo issues it again (the issuer is idempotent by
   * tradeNo) and records it.
   */
  private CreditOutcome recordedOnceIssued(Reward reward, RewardType type, String digest) {
    try {
      return recorded(reward, book.recordIssued(reward, digest, type.kind(), false));
    } catch (RuntimeException e) {
      // Whatever kept the book from recording it (an outage, retries exhausted on a conflict).
      throw new IssuedUnrecorded(reward.tradeNo(), e);
    }
  }

  /** A reward its issuer issued that the reward book could not record: an outage, not a refusal. */
  public static final class IssuedUnrecorded extends Unavailable {
    private static final long serialVersionUID = 1L;

    IssuedUnrecorded(String tradeNo, RuntimeException cause) {
      super(
          cause instanceof Unavailable outage ? outage.dependency() : "postgres",
          "reward " + tradeNo + " was issued and is not recorded yet: " + cause.getMessage(),
          cause);
    }
  }

  private CreditOutcome recorded(Reward reward, RewardBook.Credit credit) {
    return switch (credit) {
      case DONE -> {
        metrics.issued(reward.type());
        yield new CreditOutcome.Credited(true);
      }
      case ALREADY -> settledBefore(reward.tradeNo());
      case CONFLICT -> new CreditOutcome.Conflict();
      case UNPAYABLE ->
          throw new Invariants.InvariantViolation(
              "reward " + reward.tradeNo() + ": no escrow pays a coupon or an item");
    };
  }

  private CreditOutcome settledBefore(String tradeNo) {
    return book.find(tradeNo)
        .map(RewardService::settled)
        .orElseThrow(
            () ->
                new Invariants.InvariantViolation(
                    "reward " + tradeNo + " was settled before but is not in the book"));
  }

  private static CreditOutcome settled(RewardRecord record) {
    return record.status() == RewardRecord.Status.CREDITED
        ? new CreditOutcome.Credited(false)
        : new CreditOutcome.Refused(record.note());
  }

  /** Best effort: a copy left behind only makes a credited token look pending to the statement. */
  private void forgetToken(Reward reward) {
    try {
      tokenStore.delete(reward);
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "could not drop the token copy of " + reward.tradeNo(), e);
    }
  }
}
