package hongbao.core.split;

import java.util.List;
import java.util.Locale;

/**
 * Finds a split policy by its configured name. LUCKY packets use {@link #DEFAULT_LUCKY} unless
 * configuration names another; FIXED packets always use {@code fixed}.
 */
public final class SplitPolicies {

  /** The policy LUCKY packets get when configuration names none: the seeds' rule. */
  public static final String DEFAULT_LUCKY = DoubleMeanSplit.NAME;

  private static final List<String> NAMES =
      List.of(
          DoubleMeanSplit.NAME,
          DoubleMeanSplit.SMOOTHED_NAME,
          AtGrabSplit.NAME,
          FixedSplit.NAME,
          FairSplit.NAME,
          NormalSplit.NAME);

  private SplitPolicies() {}

  /** Every name {@link #named} accepts, in a stable order. */
  public static List<String> names() {
    return NAMES;
  }

  /** The policy with this name and default options (no cap). */
  public static SplitPolicy named(String name) {
    return named(name, SplitOptions.DEFAULTS);
  }

  /**
   * The policy with this name, tuned by {@code options}.
   *
   * @throws IllegalArgumentException for an unknown name
   */
  public static SplitPolicy named(String name, SplitOptions options) {
    String key = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    return switch (key) {
      case DoubleMeanSplit.NAME -> new DoubleMeanSplit(options.capFen(), options.smoothed());
      case DoubleMeanSplit.SMOOTHED_NAME -> new DoubleMeanSplit(options.capFen(), true);
      case AtGrabSplit.NAME -> new AtGrabSplit(options.capFen());
      case FixedSplit.NAME -> new FixedSplit(options.capFen());
      case FairSplit.NAME -> new FairSplit(options.capFen());
      case NormalSplit.NAME -> new NormalSplit(options.capFen(), options.spread());
      default ->
          throw new IllegalArgumentException(
              "unknown split policy '" + name + "'; known policies: " + String.join(", ", NAMES));
    };
  }
}
