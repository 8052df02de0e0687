package hongbao.core.reward;

import java.util.List;
import java.util.Optional;

/**
 * The operator's remedy for a reward in the failure stream, once its cause is fixed (an issuer
 * back, a type defined again): the reward goes back to its type's queue with its attempts counted
 * afresh, and its failure entry is forgotten. Crediting is by tradeNo, so a reward that was in fact
 * credited meanwhile, or retried twice at once, is credited once; one the issuer refused for good
 * is answered from the reward book as refused and comes back to the failure stream.
 *
 * <p>The reward is queued before its entry is forgotten: a crash between the two leaves both, and
 * the entry is still reported until retried again. Only the entry retried is forgotten: a reward
 * the book answers as refused can fail again, with a new entry, before the retry forgets the old
 * one, and that new entry must stay. Thread-safe.
 */
public final class RewardFailures {

  /** How far into the failure stream a retry looks for its tradeNo. */
  public static final int SCANNED_MAX = 10_000;

  private final FailureLog log;
  private final RewardQueues queues;
  private final RewardTypes types;

  public RewardFailures(FailureLog log, RewardQueues queues, RewardTypes types) {
    this.log = log;
    this.queues = queues;
    this.types = types;
  }

  public List<FailureLog.Failure> list(int max) {
    return log.failures(max);
  }

  /** What became of a retry. */
  public enum Retry {
    QUEUED,
    /** The failure stream holds no reward of that tradeNo (retried already). */
    NOT_FOUND,
    /** Its type is not defined any more: define it, then retry. */
    UNKNOWN_TYPE
  }

  public Retry retry(String tradeNo) {
    Optional<FailureLog.Failure> failed =
        log.failures(SCANNED_MAX).stream()
            .filter(failure -> failure.reward().tradeNo().equals(tradeNo))
            .findFirst();
    if (failed.isEmpty()) {
      return Retry.NOT_FOUND;
    }
    Reward reward = failed.get().reward();
    Optional<RewardType> type = types.find(reward.type());
    if (type.isEmpty()) {
      return Retry.UNKNOWN_TYPE;
    }
    // Forgotten only once a queue has it: with both topics down the retry fails and the entry
    // stays.
    queues.handOver(reward, type.get().queue(), 0);
    log.forget(failed.get().id());
    return Retry.QUEUED;
  }
}
