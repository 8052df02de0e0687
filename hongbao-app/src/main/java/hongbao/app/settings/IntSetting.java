package hongbao.app.settings;

import java.time.Duration;
import java.util.Map;

/**
 * An integer setting and its allowed range. A value outside it stops the start with one line that
 * names the variable, the value and the range, never a silently different setting.
 */
public record IntSetting(String name, int absent, int min, int max, String meaning)
    implements Setting {

  public IntSetting {
    if (absent < min || absent > max) {
      throw new IllegalArgumentException(
          "%s: default %d outside %d..%d".formatted(name, absent, min, max));
    }
  }

  public int read(Map<String, String> env) {
    String text = Setting.blankToNull(env.get(name));
    if (text == null) {
      return absent;
    }
    int value;
    try {
      value = Integer.parseInt(text.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be an integer, not '" + text + "'", e);
    }
    if (value < min || value > max) {
      throw new IllegalArgumentException(
          "%s=%d is out of range: allowed %d..%d (default %d)"
              .formatted(name, value, min, max, absent));
    }
    return value;
  }

  public Duration millis(Map<String, String> env) {
    return Duration.ofMillis(read(env));
  }

  public Duration seconds(Map<String, String> env) {
    return Duration.ofSeconds(read(env));
  }

  @Override
  public String byDefault() {
    return Integer.toString(absent);
  }

  @Override
  public String allowed() {
    return min + ".." + max;
  }
}
