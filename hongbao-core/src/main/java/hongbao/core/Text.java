package hongbao.core;

import java.util.Optional;

/**
 * What text the service stores: well-formed Unicode without U+0000. PostgreSQL refuses U+0000 in
 * text, and an unpaired surrogate does not survive UTF-8 (Redis and the tokens write it as '?',
 * Kafka keeps it), so copies of one value would disagree.
 */
public final class Text {

  private Text() {}

  /** Why {@code text} cannot be stored, named for a message after the field; empty if it can. */
  public static Optional<String> fault(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == 0) {
        return Optional.of("must not contain the character U+0000");
      }
      if (Character.isHighSurrogate(c)
          && i + 1 < text.length()
          && Character.isLowSurrogate(text.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return Optional.of("holds an unpaired surrogate; it is not valid Unicode");
      }
    }
    return Optional.empty();
  }
}
