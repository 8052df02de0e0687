package hongbao.app.settings;

import java.util.Map;

/**
 * A text setting: an address, a secret, a name. Its {@code allowed} is what the code that uses it
 * checks (a URL's scheme, a secret's length); null when unset or blank, or {@code absent} if it has
 * a plain default.
 */
public record TextSetting(
    String name, String absent, String byDefault, String allowed, String meaning)
    implements Setting {

  /** A setting without a plain default value: {@code byDefault} says what happens instead. */
  public static TextSetting of(String name, String byDefault, String allowed, String meaning) {
    return new TextSetting(name, null, byDefault, allowed, meaning);
  }

  /** The value, trimmed of nothing (secrets may hold any character); null when unset. */
  public String read(Map<String, String> env) {
    String value = Setting.blankToNull(env.get(name));
    return value != null ? value : absent;
  }
}
