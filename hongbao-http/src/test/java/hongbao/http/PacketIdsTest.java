package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.sqids.Sqids;

/**
 * The cached decoding answers exactly what the full check answers, for canonical ids and for every
 * kind of string that decodes but is not canonical, on the first call (a miss) and on the second (a
 * hit where the first passed).
 */
class PacketIdsTest {

  private static final String ALPHABET = PacketIds.DEFAULT_ALPHABET;
  private static final Sqids CANONICAL = Sqids.builder().alphabet(ALPHABET).minLength(6).build();

  /** The decoding before the cache, kept here as the reference. */
  private static long reference(String text) {
    if (text == null || text.isEmpty() || text.length() > 32) {
      return -1;
    }
    List<Long> ids;
    try {
      ids = CANONICAL.decode(text);
    } catch (RuntimeException e) {
      return -1;
    }
    if (ids.size() != 1
        || ids.getFirst() < 0
        || !CANONICAL.encode(List.of(ids.getFirst())).equals(text)) {
      return -1;
    }
    return ids.getFirst();
  }

  private static void assertSameAsReference(PacketIds ids, List<String> texts) {
    for (String text : texts) {
      long expected = reference(text);
      assertThat(ids.decode(text)).as("first decode of %s", text).isEqualTo(expected);
      assertThat(ids.decode(text)).as("second decode of %s", text).isEqualTo(expected);
    }
  }

  @Test
  void decode_ofCanonicalIds_matchesTheFullCheck() {
    var ids = new PacketIds(ALPHABET);
    var random = new SplittableRandom(11);
    var texts = new ArrayList<String>();
    for (long id = 0; id < 3_000; id++) {
      texts.add(ids.encode(id));
    }
    for (int i = 0; i < 3_000; i++) {
      texts.add(ids.encode(random.nextLong(Long.MAX_VALUE)));
    }
    texts.add(ids.encode(Long.MAX_VALUE));
    assertSameAsReference(ids, texts);
    for (String text : texts) {
      assertThat(ids.decode(text)).isNotNegative();
    }
  }

  @Test
  void decode_ofNonCanonicalStrings_refusesThemLikeTheFullCheck() {
    var ids = new PacketIds(ALPHABET);
    var unblocked = Sqids.builder().alphabet(ALPHABET).minLength(6).blockList(Set.of()).build();
    var shorter = Sqids.builder().alphabet(ALPHABET).build();
    var longer = Sqids.builder().alphabet(ALPHABET).minLength(10).build();
    var texts = new ArrayList<String>();
    int blockedIds = 0;
    for (long id = 0; id < 50_000; id++) {
      String canonical = ids.encode(id);
      // Where the blocklist made the canonical id differ, the unblocked encoding decodes to the
      // same number and must still be refused.
      String plain = unblocked.encode(List.of(id));
      if (!plain.equals(canonical)) {
        blockedIds++;
        texts.add(plain);
        texts.add(canonical);
      }
      if (id % 97 == 0) {
        texts.add(shorter.encode(List.of(id)));
        texts.add(longer.encode(List.of(id)));
        texts.add(CANONICAL.encode(List.of(id, 1L)));
        texts.add(canonical.toUpperCase(Locale.ROOT));
        texts.add(canonical + canonical.charAt(0));
        texts.add(canonical.substring(1));
      }
    }
    assertThat(blockedIds).as("ids whose first encoding is blocked").isPositive();
    assertSameAsReference(ids, texts);
    // Refused strings stay refused after a canonical id of the same number was decoded.
    assertSameAsReference(ids, texts);
  }

  @Test
  void decode_ofArbitraryStrings_matchesTheFullCheck() {
    var ids = new PacketIds(ALPHABET);
    var random = new SplittableRandom(7);
    var texts = new ArrayList<String>();
    texts.add(null);
    texts.add("");
    texts.add("x".repeat(33));
    String symbols = ALPHABET + "-_!é红包 ";
    for (int i = 0; i < 20_000; i++) {
      var text = new StringBuilder();
      int length = 1 + random.nextInt(12);
      for (int c = 0; c < length; c++) {
        text.append(
            symbols.charAt(random.nextInt(i % 2 == 0 ? ALPHABET.length() : symbols.length())));
      }
      texts.add(text.toString());
    }
    for (int i = 0; i < 2_000; i++) {
      // A canonical id with one character changed.
      char[] mutated = ids.encode(random.nextLong(1_000_000)).toCharArray();
      mutated[random.nextInt(mutated.length)] = ALPHABET.charAt(random.nextInt(ALPHABET.length()));
      texts.add(new String(mutated));
    }
    assertSameAsReference(ids, texts);
  }

  @Test
  void decode_ofMoreIdsThanTheCacheHolds_staysExact() {
    var ids = new PacketIds(ALPHABET);
    var texts = new ArrayList<String>();
    for (long id = 0; id < PacketIds.CACHED_IDS * 3L; id += 1) {
      texts.add(ids.encode(id * 7_919));
    }
    assertSameAsReference(ids, texts);
    assertSameAsReference(ids, texts.reversed());
  }
}
