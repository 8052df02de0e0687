package hongbao.core.password;

import hongbao.core.Invariants;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * How a phrase sounds: one unit per character, each with every way it may be read (toneless
 * lowercase pinyin for a Chinese character, {@code v} for ü; the character itself otherwise, with
 * the Chinese name of a digit as another reading). The first reading of a unit is the one the
 * phrase's context suggests.
 *
 * <p>Stored with a packet as text: units separated by a space, readings by {@code |}. Neither can
 * occur in a reading, because a {@link PasswordKey} has no spaces and no symbols.
 */
public record Reading(List<List<String>> units) {

  /** Bounded like a 口令 phrase (64 characters), with room for every reading of each. */
  public static final int MAX_UNITS = 256;

  public static final int MAX_READINGS_PER_UNIT = 16;

  public Reading {
    Invariants.check(units.size() <= MAX_UNITS, "a reading of %s units", units.size());
    var copy = new ArrayList<List<String>>(units.size());
    for (List<String> unit : units) {
      Invariants.check(
          !unit.isEmpty() && unit.size() <= MAX_READINGS_PER_UNIT,
          "a unit with %s readings",
          unit.size());
      for (String reading : unit) {
        Invariants.check(
            !reading.isEmpty() && reading.indexOf(' ') < 0 && reading.indexOf('|') < 0,
            "unusable reading '%s'",
            reading);
      }
      copy.add(List.copyOf(unit));
    }
    units = List.copyOf(copy);
  }

  public int size() {
    return units.size();
  }

  public String encode() {
    var text = new StringBuilder();
    for (List<String> unit : units) {
      if (!text.isEmpty()) {
        text.append(' ');
      }
      text.append(String.join("|", unit));
    }
    return text.toString();
  }

  public static Reading decode(String text) {
    if (text.isEmpty()) {
      return new Reading(List.of());
    }
    return new Reading(
        Arrays.stream(text.split(" ")).map(unit -> List.of(unit.split("\\|"))).toList());
  }
}
