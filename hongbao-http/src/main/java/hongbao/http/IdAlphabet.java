package hongbao.http;

import hongbao.core.ops.InstallSettings;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The alphabet this install writes packet ids in. With one built-in alphabet every install would
 * hand out the same ids in the same order, so anyone could list another install's packets; each
 * install therefore has its own, kept in its data so that every instance and every restart agree.
 *
 * <p>Order: {@code HONGBAO_ID_ALPHABET} when set (stored for the install if it has none yet); else
 * the install's stored alphabet; else, in dev mode, a fresh shuffle stored for next time.
 * Production refuses to start without one of the first two, rather than pick an alphabet nobody has
 * a copy of.
 */
public final class IdAlphabet {

  /** The install setting holding the alphabet. */
  public static final String SETTING = "packet_id.alphabet";

  /** Fewer letters make longer ids and fewer possible alphabets. */
  static final int MIN_LENGTH = 16;

  private static final Logger LOG = LoggerFactory.getLogger(IdAlphabet.class);

  private IdAlphabet() {}

  /** The alphabet to use, stored for the install when it had none. */
  public static String resolve(
      String configured, InstallSettings settings, boolean devMode, RandomGenerator random) {
    if (configured != null) {
      check(configured);
      String stored = settings.keep(SETTING, configured);
      if (!stored.equals(configured)) {
        LOG.warn(
            "HONGBAO_ID_ALPHABET differs from the alphabet stored for this install:"
                + " ids handed out under the stored one no longer decode");
      }
      return configured;
    }
    String stored = settings.find(SETTING);
    if (stored != null) {
      return stored;
    }
    if (!devMode) {
      throw new IllegalStateException(
          "HONGBAO_ID_ALPHABET is not set and this install has no stored alphabet: set it to a"
              + " shuffle of its own of at least "
              + MIN_LENGTH
              + " distinct letters and digits (packet ids are written in it)");
    }
    return settings.keep(SETTING, shuffled(random));
  }

  /** The letters of the default alphabet in a random order. */
  static String shuffled(RandomGenerator random) {
    char[] letters = PacketIds.DEFAULT_ALPHABET.toCharArray();
    for (int i = letters.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      char swap = letters[i];
      letters[i] = letters[j];
      letters[j] = swap;
    }
    return new String(letters);
  }

  /** Letters and digits, each once, at least {@value #MIN_LENGTH} of them. */
  static void check(String alphabet) {
    if (alphabet.length() < MIN_LENGTH
        || !alphabet.matches("[A-Za-z0-9]+")
        || alphabet.chars().distinct().count() != alphabet.length()) {
      throw new IllegalArgumentException(
          "HONGBAO_ID_ALPHABET must be at least "
              + MIN_LENGTH
              + " distinct letters and digits, each once");
    }
  }
}
