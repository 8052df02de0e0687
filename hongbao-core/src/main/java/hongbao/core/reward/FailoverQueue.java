package hongbao.core.reward;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One virtual queue: a master and a backup topic on queues of different kinds. A user's events go
 * to the master when {@code hash(user) mod 100 < masterPercent}, else to the backup; when that send
 * fails the event goes to the other one. A producer that failed is suspect for {@link
 * #SUSPECT_FOR}: events skip it, and fail at once when both are suspect, so an outage costs one
 * timeout per producer and period, not one per event (one caller per period probes it).
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
  private final AtomicLong masterSuspectUntil = new AtomicLong();
  private final AtomicLong backupSuspectUntil = new AtomicLong();
  private final Executor failingOver;

  /**
   * @param failingOver where the other producer is tried after the first failed: off the thread
   *     that failed it (see {@link #send})
   */
  public FailoverQueue(
      VirtualQueue name,
      RewardProducer master,
      RewardProducer backup,
      int masterPercent,
      Clock clock,
      Executor failingOver) {
    if (masterPercent < 0 || masterPercent > 100) {
      throw new IllegalArgumentException("masterPercent must be 0..100: " + masterPercent);
    }
    this.name = name;
    this.master = master;
    this.backup = backup;
    this.masterPercent = masterPercent;
    this.clock = clock;
    this.failingOver = failingOver;
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

  /**
   * Sends to the preferred producer, then to the other; completes with the one that took it. A
   * suspect producer is not tried (unless this caller won its probe), so while both are down an
   * event fails at once, without a timeout, and the caller holds it.
   *
   * <p>A failure completes on whatever thread failed it: a Redis client's I/O thread for an error
   * reply, or the JVM's one timeout thread. A Kafka producer's send may block there for its
   * metadata (up to {@code max.block.ms}), which would stall every Redis command of the connection,
   * or every timeout of the JVM: the other producer is tried on {@code failingOver}.
   */
  public CompletionStage<RewardProducer> send(Reward reward, int attempt) {
    boolean toMaster = prefersMaster(reward.userId());
    if (suspect(toMaster)) {
      toMaster = !toMaster;
      if (suspect(toMaster)) {
        return CompletableFuture.failedFuture(new Suspect(name));
      }
      return attempt(toMaster, reward, attempt);
    }
    boolean first = toMaster;
    return attempt(first, reward, attempt)
        .exceptionallyComposeAsync(
            failure ->
                suspect(!first)
                    ? CompletableFuture.failedFuture(failure)
                    : attempt(!first, reward, attempt),
            failingOver);
  }

  /**
   * Sends to one producer only, the master or the backup: the alternating retry of a held event. A
   * suspect producer fails at once (unless this caller won its probe).
   */
  public CompletionStage<RewardProducer> sendOnly(boolean toMaster, Reward reward, int attempt) {
    if (suspect(toMaster)) {
      return CompletableFuture.failedFuture(new Suspect(name));
    }
    return attempt(toMaster, reward, attempt);
  }

  private boolean suspect(boolean master) {
    return suspect(master ? masterSuspectUntil : backupSuspectUntil, clock.millis());
  }

  /**
   * Whether a producer is suspect now. When its suspect time has run out, exactly one caller wins
   * the right to probe it (the mark is pushed forward for the others), so a producer that is still
   * down costs one timeout per {@link #SUSPECT_FOR}, not one per event.
   */
  private static boolean suspect(AtomicLong until, long now) {
    long mark = until.get();
    if (mark == 0) {
      return false;
    }
    if (mark > now) {
      return true;
    }
    return !until.compareAndSet(mark, now + SUSPECT_FOR.toMillis());
  }

  /** An event not tried: the producers it could go to failed less than {@link #SUSPECT_FOR} ago. */
  public static final class Suspect extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Suspect(VirtualQueue queue) {
      super("not tried: " + queue + "'s topics failed within " + SUSPECT_FOR, null, false, false);
    }
  }

  private CompletionStage<RewardProducer> attempt(boolean isMaster, Reward reward, int attempt) {
    RewardProducer producer = isMaster ? master : backup;
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
