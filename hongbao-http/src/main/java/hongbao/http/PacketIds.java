package hongbao.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.List;
import org.sqids.Sqids;

/**
 * Turns internal packet ids into the short opaque strings of the API. Sqids with a shuffled
 * alphabet keeps ids short and not guessable in sequence; it is not encryption, which is fine:
 * knowing a packet id only lets an authenticated user try to grab it, as a shared link would.
 *
 * <p>Only the canonical encoding of one id is accepted, so that every packet has exactly one public
 * id. Checking that means encoding again, and Sqids' encoding scans its whole blocklist: 9.5% of
 * the service's CPU samples in a profile of the hot bench, about 12 µs a grab. A hot packet is
 * grabbed under the same id thousands of times a second, so ids that passed the check are
 * remembered in a bounded cache: a hit returns exactly what the full check returned for the same
 * string, and anything else (a miss, an invalid string) takes the full check. Thread-safe.
 */
public final class PacketIds {

  /** The default alphabet, shuffled once; deployments may set their own. */
  public static final String DEFAULT_ALPHABET =
      "k3GxQ9bTnRm7vWcYpLz2HsJ4dFgE8aKqUeN5tBr6yCwMhX1jAfPuVDoSZi0l";

  /** Longer than any id this service hands out; longer strings are refused unread. */
  private static final int MAX_LENGTH = 32;

  /**
   * Enough for every packet grabbed in the same few minutes; about 100 bytes an entry. Caffeine's
   * admission keeps the frequently used ids when strings that are seen once flood in.
   */
  static final int CACHED_IDS = 10_000;

  private final Sqids sqids;
  private final Cache<String, Long> decoded =
      Caffeine.newBuilder().maximumSize(CACHED_IDS).executor(Runnable::run).build();

  public PacketIds(String alphabet) {
    this.sqids = Sqids.builder().alphabet(alphabet).minLength(6).build();
  }

  public String encode(long id) {
    return sqids.encode(List.of(id));
  }

  /** The id, or -1 for a string that is not exactly the encoding of one id. */
  public long decode(String text) {
    if (text == null || text.isEmpty() || text.length() > MAX_LENGTH) {
      return -1;
    }
    Long known = decoded.getIfPresent(text);
    if (known != null) {
      return known;
    }
    long id = decodeCanonical(text);
    if (id >= 0) {
      decoded.put(text, id);
    }
    return id;
  }

  /** The full check: decodes, then encodes again and insists on the same string. */
  private long decodeCanonical(String text) {
    List<Long> ids;
    try {
      ids = sqids.decode(text);
    } catch (RuntimeException e) {
      return -1;
    }
    if (ids.size() != 1 || ids.getFirst() < 0 || !encode(ids.getFirst()).equals(text)) {
      return -1;
    }
    return ids.getFirst();
  }
}
