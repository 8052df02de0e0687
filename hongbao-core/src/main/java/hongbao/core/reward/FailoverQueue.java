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
  private volatile long masterSuspectUntil;
  private volatile long backupSuspectUntil;

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
    boolean masterSuspect = masterSuspectUntil > now;
    boolean backupSuspect = backupSuspectUntil > now;
    if (masterFirst && masterSuspect && !backupSuspect) {
      masterFirst = false;
    } else if (!masterFirst && backupSuspect && !masterSuspect) {
      masterFirst = true;
    }
    return sendTo(masterFirst, reward, attempt, true);
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
              if (failure != null) {
                long until = clock.millis() + SUSPECT_FOR.toMillis();
                if (isMaster) {
                  masterSuspectUntil = until;
                } else {
                  backupSuspectUntil = until;
                }
                return CompletableFuture.<RewardProducer>failedFuture(failure);
              }
              return CompletableFuture.completedFuture(producer);
            })
        .thenCompose(stage -> stage);
  }
}
