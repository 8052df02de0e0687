package hongbao.http;

import io.github.bucket4j.Bucket;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-user grab rate limit on this instance: a token bucket per user, refilled greedily. The
 * contract promises never to refuse fewer than 10 grabs per second from one user, so the rate may
 * not be configured below that. Buckets are dropped wholesale when too many users have one: a
 * dropped bucket only forgives, it never refuses.
 */
public final class GrabLimiter {

  public static final int MIN_PER_SECOND = 10;
  private static final int MAX_TRACKED_USERS = 200_000;

  private final int perSecond;
  private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

  public GrabLimiter(int perSecond) {
    if (perSecond < MIN_PER_SECOND) {
      throw new IllegalArgumentException("grab rate limit must be at least " + MIN_PER_SECOND);
    }
    this.perSecond = perSecond;
  }

  /** Whether this user may grab now; takes a token when yes. */
  public boolean tryGrab(String userId) {
    if (buckets.size() > MAX_TRACKED_USERS) {
      buckets.clear();
    }
    return buckets.computeIfAbsent(userId, u -> newBucket()).tryConsume(1);
  }

  private Bucket newBucket() {
    return Bucket.builder()
        .addLimit(limit -> limit.capacity(perSecond).refillGreedy(perSecond, Duration.ofSeconds(1)))
        .build();
  }
}
