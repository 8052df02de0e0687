package hongbao.core.password;

import java.text.Normalizer;
import java.util.Locale;

/**
 * The comparable form of a 口令 phrase: what a person would still call "the same words". Unicode
 * compatibility normalisation folds full-width letters and digits to half width; then case is
 * folded and whitespace and punctuation are dropped, so "恭喜，发财！" matches "恭喜发财" and "ＨＢ 2026"
 * matches "hb2026".
 */
public final class PasswordKey {

  private PasswordKey() {}

  /** The normalised key; empty when the phrase has nothing but spaces and punctuation. */
  public static String of(String phrase) {
    String folded = Normalizer.normalize(phrase, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    var key = new StringBuilder(folded.length());
    folded
        .codePoints()
        .filter(cp -> !Character.isWhitespace(cp) && !Character.isSpaceChar(cp))
        .filter(cp -> !isPunctuationOrSymbol(cp))
        .forEach(key::appendCodePoint);
    return key.toString();
  }

  private static boolean isPunctuationOrSymbol(int codePoint) {
    return switch (Character.getType(codePoint)) {
      case Character.CONNECTOR_PUNCTUATION,
          Character.DASH_PUNCTUATION,
          Character.START_PUNCTUATION,
          Character.END_PUNCTUATION,
          Character.INITIAL_QUOTE_PUNCTUATION,
          Character.FINAL_QUOTE_PUNCTUATION,
          Character.OTHER_PUNCTUATION,
          Character.MATH_SYMBOL,
          Character.CURRENCY_SYMBOL,
          Character.MODIFIER_SYMBOL,
          Character.CONTROL,
          Character.FORMAT ->
          true;
      default -> false;
    };
  }
}
