package hongbao.app;

import picocli.CommandLine;

/** The version the jar was built as (its manifest), or "dev" when run from the class files. */
public final class Version {

  private Version() {}

  public static String current() {
    String version = Version.class.getPackage().getImplementationVersion();
    return version == null ? "dev" : version;
  }

  /** For {@code hongbao --version}. */
  public static final class Provider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"hongbao " + current() + " (Java " + Runtime.version() + ")"};
    }
  }
}
