package hongbao.app.settings;

/**
 * One {@code HONGBAO_*} environment variable as {@code serve --help} and the README describe it.
 * Each kind also reads itself, so the description and the reading cannot disagree.
 */
public sealed interface Setting permits IntSetting, TextSetting, FlagSetting {

  /** The variable, {@code HONGBAO_...}. */
  String name();

  /** What applies when the variable is unset or blank. */
  String byDefault();

  /** The values accepted; anything else stops the start. */
  String allowed();

  /** One line on what it changes. */
  String meaning();

  static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value;
  }
}
