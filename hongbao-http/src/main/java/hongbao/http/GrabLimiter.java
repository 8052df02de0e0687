package hongbao.http;

import java.util.function.LongSupplier;

/**
 * Per-user grab rate limit on this instance: a token bucket per user of {@code perSecond} tokens,
 * refilled greedily. The contract promises never to refuse fewer than 10 grabs per second from one
 * user, so the rate may not be configured below that.
 *
 * <p>Each bucket is one number, the generic cell rate algorithm's theoretical arrival time: the
 * moment the bucket would be full again. A grab is allowed while that moment is at most one full
 * bucket ahead of now, and moves it one token's interval on. This is exactly a greedily refilled
 * bucket.
 *
 * <p>The buckets live in one array made at construction, {@value #BUCKETS} slots of a user's key (a
 * 64-bit hash of the id) and that number. On a hot packet every grab is a new user: a map entry per
 * user lived for minutes, long enough to be copied by every young collection and promoted, and such
 * survivors made the service's young collections pause 18.7 ms at the median and up to 196 ms. A
 * user whose slot holds another user's key takes the slot over with a full bucket, so sharing a
 * slot only ever forgives: it can let a user grab sooner, never refuse one. Two users refuse each
 * other only if their 64-bit keys are equal.
 */
public final class GrabLimiter {

  public static final int MIN_PER_SECOND = 10;

  /** Slots for users (a power of two): 4 MB, some 260,000 users at a time. */
  static final int BUCKETS = 1 << 18;

  /** Locks guarding the slots, a slot's lock chosen by its index: few threads grab at once. */
  private static final int STRIPES = 64;

  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private final long intervalNanos;
  private final long burstNanos;
  private final LongSupplier nanoTime;

  /**
   * Slot {@code i}: the user's key at {@code 2i} (0 for none), the full-again time at {@code 2i+1}.
   */
  private final long[] buckets = new long[2 * BUCKETS];

  private final Object[] stripes = new Object[STRIPES];

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
    for (int i = 0; i < STRIPES; i++) {
      stripes[i] = new Object();
    }
  }

  /** Whether this user may grab now; takes a token when yes. */
  public boolean tryGrab(String userId) {
    long key = key(userId);
    int slot = (int) key & (BUCKETS - 1);
    int at = 2 * slot;
    long now = nanoTime.getAsLong();
    synchronized (stripes[slot & (STRIPES - 1)]) {
      // A slot without this user's key is a full bucket for them: this grab takes its first token.
      long full = buckets[at] == key ? buckets[at + 1] : now;
      long next = Math.max(full, now) + intervalNanos;
      if (next - now > burstNanos) {
        return false;
      }
      buckets[at] = key;
      buckets[at + 1] = next;
      return true;
    }
  }

  /**
   * A 64-bit key of the id: FNV-1a over its characters, then MurmurHash3's finalizer so that the
   * low bits (the slot) depend on every character; never 0, which marks an empty slot.
   */
  static long key(String userId) {
    long hash = 0xcbf29ce484222325L;
    for (int i = 0; i < userId.length(); i++) {
      hash ^= userId.charAt(i);
      hash *= 0x100000001b3L;
    }
    hash ^= hash >>> 33;
    hash *= 0xff51afd7ed558ccdL;
    hash ^= hash >>> 33;
    hash *= 0xc4ceb9fe1a85ec53L;
    hash ^= hash >>> 33;
    return hash == 0 ? 1 : hash;
  }
}
