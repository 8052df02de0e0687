package hongbao.core.password;

import java.util.Locale;
import java.util.Optional;

/**
 * How closely a grab's 口令 must resemble the sender's, chosen by the sender. Every mode accepts a
 * phrase whose {@link PasswordKey} equals the sender's; the others also accept what a speech
 * recogniser writes for the same sounds:
 *
 * <ul>
 *   <li>{@link Exact}: the normalised keys must be equal (case, width, spaces and punctuation
 *       folded);
 *   <li>{@link Pinyin} (the default): the same toneless pinyin, syllable for syllable, where a
 *       polyphone may be read any of its ways, so 恭喜发财, 恭禧發財 and 工喜发财 are one phrase;
 *   <li>{@link Fuzzy}: a pinyin similarity of at least {@code percent} (50–100), where the sounds
 *       people confuse (l/n, zh/z, ch/c, sh/s, f/h, r/l, an/ang, en/eng, in/ing) count as equal.
 * </ul>
 */
public sealed interface PasswordMatch {

  int FUZZY_MIN_PERCENT = 50;
  int FUZZY_MAX_PERCENT = 100;

  PasswordMatch EXACT = new Exact();
  PasswordMatch PINYIN = new Pinyin();

  /** The mode a packet gets when its sender names none. */
  PasswordMatch DEFAULT = PINYIN;

  record Exact() implements PasswordMatch {
    @Override
    public String code() {
      return "EXACT";
    }
  }

  record Pinyin() implements PasswordMatch {
    @Override
    public String code() {
      return "PINYIN";
    }
  }

  /** A pinyin similarity of at least {@code percent} out of 100. */
  record Fuzzy(int percent) implements PasswordMatch {
    public Fuzzy {
      if (percent < FUZZY_MIN_PERCENT || percent > FUZZY_MAX_PERCENT) {
        throw new IllegalArgumentException(
            "a fuzzy match needs %d to %d percent: %d"
                .formatted(FUZZY_MIN_PERCENT, FUZZY_MAX_PERCENT, percent));
      }
    }

    @Override
    public String code() {
      return Integer.toString(percent);
    }
  }

  /** The stored and wire form: {@code EXACT}, {@code PINYIN} or the percentage as digits. */
  String code();

  /** The mode a {@link #code()} names, or empty for anything else. */
  static Optional<PasswordMatch> parse(String code) {
    if (code == null) {
      return Optional.empty();
    }
    String upper = code.toUpperCase(Locale.ROOT);
    if (upper.equals("EXACT")) {
      return Optional.of(EXACT);
    }
    if (upper.equals("PINYIN")) {
      return Optional.of(PINYIN);
    }
    if (!upper.matches("[0-9]{2,3}")) {
      return Optional.empty();
    }
    int percent = Integer.parseInt(upper);
    return percent >= FUZZY_MIN_PERCENT && percent <= FUZZY_MAX_PERCENT
        ? Optional.of(new Fuzzy(percent))
        : Optional.empty();
  }
}
