package hongbao.http;

import java.util.List;
import org.sqids.Sqids;

/**
 * Turns internal packet ids into the short opaque strings of the API. Sqids with a shuffled
 * alphabet keeps ids short and not guessable in sequence; it is not encryption, which is fine:
 * knowing a packet id only lets an authenticated user try to grab it, as a shared link would.
 */
public final class PacketIds {

  /** The default alphabet, shuffled once; deployments may set their own. */
  public static final String DEFAULT_ALPHABET =
      "k3GxQ9bTnRm7vWcYpLz2HsJ4dFgE8aKqUeN5tBr6yCwMhX1jAfPuVDoSZi0l";

  private final Sqids sqids;

  public PacketIds(String alphabet) {
    this.sqids = Sqids.builder().alphabet(alphabet).minLength(6).build();
  }

  public String encode(long id) {
    return sqids.encode(List.of(id));
  }

  /** The id, or -1 for a string that is not exactly the encoding of one id. */
  public long decode(String text) {
    if (text == null || text.isEmpty() || text.length() > 32) {
      return -1;
    }
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
