package hongbao.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import hongbao.core.ops.InstallSettings;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Which alphabet an install writes its packet ids in, and when it refuses to pick one. */
class IdAlphabetTest {

  private static final String OWN = "Zq8Wm3Xr1Tb5Yk7Vn2Uc4Sd6";

  /** The PostgreSQL table's rule in a map: the first value stored under a name stays. */
  private static final class Settings implements InstallSettings {
    final Map<String, String> values = new HashMap<>();

    @Override
    public String keep(String name, String candidate) {
      return values.computeIfAbsent(name, n -> candidate);
    }

    @Override
    public String find(String name) {
      return values.get(name);
    }
  }

  @Test
  void devMode_withoutOne_shufflesAndStores_thenKeepsIt() {
    var settings = new Settings();
    String first = IdAlphabet.resolve(null, settings, true, new SplittableRandom(1));
    String again = IdAlphabet.resolve(null, settings, true, new SplittableRandom(2));

    assertThat(first).isNotEqualTo(PacketIds.DEFAULT_ALPHABET);
    assertThat(first.chars().sorted().toArray())
        .isEqualTo(PacketIds.DEFAULT_ALPHABET.chars().sorted().toArray());
    assertThat(again).isEqualTo(first);
    assertThat(settings.values).containsEntry(IdAlphabet.SETTING, first);
  }

  @Test
  void twoInstalls_shuffleDifferently() {
    String one = IdAlphabet.resolve(null, new Settings(), true, new SplittableRandom(1));
    String two = IdAlphabet.resolve(null, new Settings(), true, new SplittableRandom(2));

    assertThat(new PacketIds(one).encode(1)).isNotEqualTo(new PacketIds(two).encode(1));
  }

  @Test
  void production_withoutOne_refusesToStart() {
    var settings = new Settings();

    assertThatThrownBy(() -> IdAlphabet.resolve(null, settings, false, new SplittableRandom(1)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("HONGBAO_ID_ALPHABET");
    assertThat(settings.values).isEmpty();
  }

  @Test
  void production_usesTheStoredOne() {
    var settings = new Settings();
    settings.keep(IdAlphabet.SETTING, OWN);

    assertThat(IdAlphabet.resolve(null, settings, false, new SplittableRandom(1))).isEqualTo(OWN);
  }

  @Test
  void configured_winsAndIsStoredWhenNoneIs() {
    var settings = new Settings();

    assertThat(IdAlphabet.resolve(OWN, settings, false, new SplittableRandom(1))).isEqualTo(OWN);
    assertThat(settings.values).containsEntry(IdAlphabet.SETTING, OWN);
  }

  @Test
  void configured_mustBeDistinctLettersAndDigits() {
    for (String bad : new String[] {"abc", "Zq8Wm3Xr1Tb5Yk7Vn2Uc4SdZ", "Zq8Wm3Xr1Tb5Yk7Vn2Uc4S-"}) {
      assertThatThrownBy(
              () -> IdAlphabet.resolve(bad, new Settings(), true, new SplittableRandom(1)))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }
}
