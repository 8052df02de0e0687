package hongbao.http.auth;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@link Tokens} that remembers what it verified. Verifying a token parses it, parses its claims
 * and checks its HMAC: 12% of the service's CPU samples in a profile of the hot bench. A user sends
 * the same token with every request, so a token that verified is kept, with its caller, until its
 * {@code exp} (never longer than {@link #MAX_AGE}); until then the same string answers the same
 * caller without verifying it again. Anything not remembered is verified by {@code Tokens} as
 * before, so its rules stay the only rules.
 *
 * <p>This relies on one property of those rules: a token valid at some instant stays valid until
 * its {@code exp} (nothing revokes a token, and a signature or a claim does not change). The {@code
 * exp} is the one {@code Tokens} read while verifying, so both always agree on it. Thread-safe.
 *
 * <p>The memory is a direct-mapped table: a token has one slot (by its hash) and a newer token in
 * the same slot replaces it. A cache with an eviction policy cost a third as much again as the
 * verification on every miss, and the hot path is all misses when every grab comes from a new user;
 * here a miss costs one copy into the slot. The slots are bytes in arrays made at construction (the
 * token's and the user id's ASCII characters, their lengths, the admin flag, the deadline): a
 * record per token lived for minutes, long enough to be copied by every young collection and
 * promoted, which made the service's young collections pause 18.7 ms at the median and up to 196 ms
 * on a hot packet.
 *
 * <p>A slot is written by one thread at a time under its version (a sequence lock): odd while it is
 * being written, advanced by two when done. A reader reads the version, the slot, then the version
 * again, and trusts what it read only if the version was even and did not change; otherwise it
 * verifies the token as if it had not been remembered. A writer that finds a slot being written
 * leaves it: the token is verified again next time.
 */
public final class VerifiedTokens {

  /** The longest a token is remembered before {@code Tokens} is asked again. */
  public static final Duration MAX_AGE = Duration.ofMinutes(5);

  /** Slots of the table (a power of two): {@value #SLOT_BYTES} bytes each, 24 MB in all. */
  public static final int DEFAULT_SLOTS = 1 << 16;

  /** Tokens longer than this are verified every time rather than kept (this service mints ~200). */
  static final int MAX_REMEMBERED_LENGTH = 320;

  /**
   * Room for a user id: what {@code SendRules.USER_ID} allows (64 ASCII characters). A caller that
   * does not fit (were the rules to widen) is verified every time.
   */
  static final int MAX_REMEMBERED_USER_ID = 64;

  private static final int SLOT_BYTES = MAX_REMEMBERED_LENGTH + MAX_REMEMBERED_USER_ID;
  private static final int ADMIN = 1 << 31;
  private static final VarHandle VERSION = MethodHandles.arrayElementVarHandle(long[].class);

  private final Tokens tokens;
  private final Clock clock;
  private final int mask;

  /** Slot {@code i}'s token, then its user id, at {@code i * SLOT_BYTES}. */
  private final byte[] characters;

  /** Slot {@code i}'s token length, user id length ({@code << 16}) and {@link #ADMIN} flag. */
  private final int[] shapes;

  /** Slot {@code i}'s deadline, epoch millis: answered from memory while now is before it. */
  private final long[] untilMillis;

  /** Slot {@code i}'s version: even when the slot is whole, odd while it is written. */
  private final long[] versions;

  private final LongAdder answeredFromMemory = new LongAdder();

  public VerifiedTokens(Tokens tokens, Clock clock, int slots) {
    if (slots < 1 || Integer.bitCount(slots) != 1) {
      throw new IllegalArgumentException("slots must be a power of two: " + slots);
    }
    this.tokens = tokens;
    this.clock = clock;
    this.mask = slots - 1;
    this.characters = new byte[slots * SLOT_BYTES];
    this.shapes = new int[slots];
    this.untilMillis = new long[slots];
    this.versions = new long[slots];
  }

  public VerifiedTokens(Tokens tokens, Clock clock) {
    this(tokens, clock, DEFAULT_SLOTS);
  }

  /** The caller of a valid token, or empty for anything else; as {@link Tokens#verify}. */
  public Optional<Caller> verify(String token) {
    if (token == null || token.length() > MAX_REMEMBERED_LENGTH) {
      return tokens.verify(token);
    }
    int slot = slot(token);
    Instant now = clock.instant();
    Caller known = recall(slot, token, now.toEpochMilli());
    if (known != null) {
      answeredFromMemory.increment();
      return Optional.of(known);
    }
    Tokens.Verified verified = tokens.verified(token);
    if (verified == null) {
      return Optional.empty();
    }
    remember(slot, token, verified.caller(), rememberUntil(verified.expirySecond(), now));
    return Optional.of(verified.caller());
  }

  /**
   * Until when a token that has just verified may be answered from memory, in epoch millis: its
   * {@code exp} (whole seconds, so never later than the claim), at most {@link #MAX_AGE} from now.
   */
  private static long rememberUntil(long expirySecond, Instant now) {
    Instant latest = now.plus(MAX_AGE);
    // Compared as seconds: an exp beyond what Instant holds is just later than the latest.
    return expirySecond < latest.getEpochSecond() ? expirySecond * 1_000 : latest.toEpochMilli();
  }

  private int slot(String token) {
    int hash = token.hashCode();
    return (hash ^ (hash >>> 16)) & mask;
  }

  /** The caller this slot remembers for exactly this token, still in time; null otherwise. */
  private Caller recall(int slot, String token, long nowMillis) {
    long version = (long) VERSION.getAcquire(versions, slot);
    if ((version & 1) != 0) {
      return null;
    }
    int shape = shapes[slot];
    long until = untilMillis[slot];
    int tokenLength = shape & 0xffff;
    int userLength = (shape >>> 16) & 0x7fff;
    if (tokenLength != token.length() || nowMillis >= until) {
      return null;
    }
    int base = slot * SLOT_BYTES;
    // Every character is compared, whatever the first difference: a slot holds another user's
    // valid token, and a comparison that stopped early would time how much of a guess is right.
    // Stored characters are ASCII: a token's character outside it never equals one.
    int differences = 0;
    for (int i = 0; i < tokenLength; i++) {
      differences |= token.charAt(i) ^ characters[base + i];
    }
    if (differences != 0) {
      return null;
    }
    String userId =
        new String(characters, base + MAX_REMEMBERED_LENGTH, userLength, StandardCharsets.US_ASCII);
    // Whatever was read above counts only if no writer started meanwhile.
    VarHandle.acquireFence();
    if ((long) VERSION.getOpaque(versions, slot) != version) {
      return null;
    }
    return new Caller(userId, (shape & ADMIN) != 0);
  }

  private void remember(int slot, String token, Caller caller, long until) {
    String userId = caller.userId();
    if (!isAscii(token) || userId.length() > MAX_REMEMBERED_USER_ID || !isAscii(userId)) {
      return;
    }
    long version = (long) VERSION.getVolatile(versions, slot);
    if ((version & 1) != 0 || !VERSION.compareAndSet(versions, slot, version, version + 1)) {
      return; // another thread is writing this slot: this token is verified again next time
    }
    int base = slot * SLOT_BYTES;
    for (int i = 0; i < token.length(); i++) {
      characters[base + i] = (byte) token.charAt(i);
    }
    for (int i = 0; i < userId.length(); i++) {
      characters[base + MAX_REMEMBERED_LENGTH + i] = (byte) userId.charAt(i);
    }
    shapes[slot] = token.length() | userId.length() << 16 | (caller.admin() ? ADMIN : 0);
    untilMillis[slot] = until;
    VERSION.setRelease(versions, slot, version + 2);
  }

  private static boolean isAscii(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  public String mint(String userId, boolean admin, Duration lifetime) {
    return tokens.mint(userId, admin, lifetime);
  }

  /** How many verifications were answered from memory: for tests. */
  long hits() {
    return answeredFromMemory.sum();
  }
}
