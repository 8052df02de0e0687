package hongbao.core.reward;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One virtual queue: a master and a backup topic on queues of different kinds. A user's events go
 * to the master when {@code hash(user) mod 100 < masterPercent}, else to the backup; when that send
 * fails the event goes to the other one. A producer that failed is suspect for {@link
 * #SUSPECT_FOR}: events skip it (unless both are suspect), so an outage costs one timeout, not one
 * per event.
 *
 * <p>Thread-safe: the suspect marks are volatile instants, the producers thread-safe.
 */
public final class FailoverQueue {

  public static final Duration SUSPECT_FOR = Duration.ofSeconds(2);

  private final VirtualQueue name;
  private final RewardProducer master;
  private final RewardProducer backup;
  private final int masterPercent;
  private final Clock clock;
  private final java.util.concurrent.atomic.AtomicLong masterSuspectUntil =
      new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong backupSuspectUntil =
      new java.util.concurrent.atomic.AtomicLong();

  public FailoverQueue(
      VirtualQueue name,
      RewardProducer master,
      RewardProducer backup,
      int masterPercent,
      Clock clock) {
    if (masterPercent < 0 || masterPercent > 100) {
      throw new IllegalArgumentException("masterPercent must be 0..100: " + masterPercent);
    }
    this.name = name;
    this.master = master;
    this.backup = backup;
    this.masterPercent = masterPercent;
    this.clock = clock;
  }

  public VirtualQueue name() {
    return name;
  }

  public RewardProducer master() {
    return master;
  }

  public RewardProducer backup() {
    return backup;
  }

  /** Whether this user's events go to the master first. */
  public boolean prefersMaster(String userId) {
    return Math.floorMod(userId.hashCode(), 100) < masterPercent;
  }

  /** Sends to the preferred producer, then to the other; completes with the one that took it. */
  public CompletionStage<RewardProducer> send(Reward reward, int attempt) {
    boolean masterFirst = prefersMaster(reward.userId());
    long now = clock.millis();
    boolean masterSuspect = suspect(masterSuspectUntil, now);
    boolean backupSuspect = suspect(backupSuspectUntil, now);
    if (masterFirst && masterSuspect && !backupSuspect) {
      masterFirst = false;
    } else if (!masterFirst && backupSuspect && !masterSuspect) {
      masterFirst = true;
    }
    return sendTo(masterFirst, reward, attempt, true);
  }

  /**
   * Whether a producer is suspect now. When its suspect time has run out, exactly one caller wins
   * the right to probe it (the mark is pushed forward for the others), so a producer that is still
   * down costs one timeout per {@link #SUSPECT_FOR}, not one per event.
   */
  private boolean suspect(java.util.concurrent.atomic.AtomicLong until, long now) {
    long mark = until.get();
    if (mark == 0) {
      return false;
    }
    if (mark > now) {
      return true;
    }
    return !until.compareAndSet(mark, now + SUSPECT_FOR.toMillis());
  }

  /** Sends to one producer only, the master or the backup: the alternating retry. */
  public CompletionStage<RewardProducer> sendOnly(boolean toMaster, Reward reward, int attempt) {
    return sendTo(toMaster, reward, attempt, false);
  }

  private CompletionStage<RewardProducer> sendTo(
      boolean toMaster, Reward reward, int attempt, boolean thenOther) {
    RewardProducer first = toMaster ? master : backup;
    CompletionStage<RewardProducer> sent = attempt(first, toMaster, reward, attempt);
    if (!thenOther) {
      return sent;
    }
    return sent.exceptionallyCompose(
        failure -> attempt(toMaster ? backup : master, !toMaster, reward, attempt));
  }

  private CompletionStage<RewardProducer> attempt(
      RewardProducer producer, boolean isMaster, Reward reward, int attempt) {
    CompletionStage<Void> sent;
    try {
      sent = producer.send(reward, attempt);
    } catch (RuntimeException e) {
      sent = CompletableFuture.failedFuture(e);
    }
    return sent.handle(
            (ok, failure) -> {
              var mark = isMaster ? masterSuspectUntil : backupSuspectUntil;
              if (failure != null) {
                mark.set(clock.millis() + SUSPECT_FOR.toMillis());
                return CompletableFuture.<RewardProducer>failedFuture(failure);
              }
              mark.set(0);
              return CompletableFuture.completedFuture(producer);
            })
        .thenCompose(stage -> stage);
  }
}
