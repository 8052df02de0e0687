package hongbao.http;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Per-user grab rate limit on this instance: a token bucket per user of {@code perSecond} tokens,
 * refilled greedily. The contract promises never to refuse fewer than 10 grabs per second from one
 * user, so the rate may not be configured below that. Buckets are dropped wholesale when too many
 * users have one: a dropped bucket only forgives, it never refuses.
 *
 * <p>Each bucket is one number, the generic cell rate algorithm's theoretical arrival time: the
 * moment the bucket would be full again. A grab is allowed while that moment is at most one full
 * bucket ahead of now, and moves it one token's interval on. This is exactly a greedily refilled
 * bucket, and a new user (every user, on a hot packet) costs one small object instead of a
 * configured bucket.
 */
public final class GrabLimiter {

  public static final int MIN_PER_SECOND = 10;
  private static final int MAX_TRACKED_USERS = 200_000;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private final long intervalNanos;
  private final long burstNanos;
  private final LongSupplier nanoTime;
  private final ConcurrentHashMap<String, AtomicLong> fullAt = new ConcurrentHashMap<>();

  public GrabLimiter(int perSecond) {
    this(perSecond, System::nanoTime);
  }

  /**
   * @param nanoTime a monotonic clock in nanoseconds
   */
  public GrabLimiter(int perSecond, LongSupplier nanoTime) {
    if (perSecond < MIN_PER_SECOND) {
      throw new IllegalArgumentException("grab rate limit must be at least " + MIN_PER_SECOND);
    }
    this.intervalNanos = NANOS_PER_SECOND / perSecond;
    this.burstNanos = intervalNanos * perSecond;
    this.nanoTime = nanoTime;
  }

  /** Whether this user may grab now; takes a token when yes. */
  public boolean tryGrab(String userId) {
    if (fullAt.size() > MAX_TRACKED_USERS) {
      fullAt.clear();
    }
    long now = nanoTime.getAsLong();
    AtomicLong bucket = fullAt.get(userId);
    if (bucket == null) {
      // A new bucket is full: this grab takes its first token.
      bucket = fullAt.putIfAbsent(userId, new AtomicLong(now + intervalNanos));
      if (bucket == null) {
        return true;
      }
    }
    while (true) {
      long full = bucket.get();
      long next = Math.max(full, now) + intervalNanos;
      if (next - now > burstNanos) {
        return false;
      }
      if (bucket.compareAndSet(full, next)) {
        return true;
      }
    }
  }
}
