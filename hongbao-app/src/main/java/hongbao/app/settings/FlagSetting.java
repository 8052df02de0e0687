package hongbao.app.settings;

import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/** A true/false setting; any other word stops the start rather than meaning false. */
public record FlagSetting(String name, String byDefault, String meaning) implements Setting {

  /** Empty when unset, for a default that depends on other settings. */
  public Optional<Boolean> read(Map<String, String> env) {
    String text = Setting.blankToNull(env.get(name));
    if (text == null) {
      return Optional.empty();
    }
    return switch (text.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> Optional.of(true);
      case "false" -> Optional.of(false);
      default ->
          throw new IllegalArgumentException(name + " must be true or false, not '" + text + "'");
    };
  }

  @Override
  public String allowed() {
    return "true, false";
  }
}
