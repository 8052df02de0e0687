package hongbao.core.ops;

import java.util.Map;

/**
 * Port: the degradation switches shared by every instance. Reads must be cheap (they sit on the
 * grab path), so adapters cache and refresh at least every five seconds.
 */
public interface Switches {

  boolean enabled(Switch which);

  /** Sets a switch for every instance and returns the new map. */
  Map<Switch, Boolean> set(Switch which, boolean enabled);

  Map<Switch, Boolean> all();
}
