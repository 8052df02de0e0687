package hongbao.core.ops;

/**
 * Values chosen once per install and kept with its data, so that every instance of the install and
 * every restart agree on them. A value is never changed once stored.
 */
public interface InstallSettings {

  /**
   * The value stored under {@code name}; when there is none yet, {@code candidate} is stored and
   * returned. When several instances race, the first to store wins and all return its value.
   */
  String keep(String name, String candidate);

  /** The value stored under {@code name}, or null. */
  String find(String name);
}
