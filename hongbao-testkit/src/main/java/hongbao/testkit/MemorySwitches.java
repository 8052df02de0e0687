package hongbao.testkit;

import hongbao.core.ops.Switch;
import hongbao.core.ops.Switches;
import java.util.EnumMap;
import java.util.Map;

/** The degradation switches in memory, every one on at first, as in a fresh Redis. */
public final class MemorySwitches implements Switches {

  private final Map<Switch, Boolean> states = new EnumMap<>(Switch.class);

  public MemorySwitches() {
    for (Switch which : Switch.values()) {
      states.put(which, true);
    }
  }

  @Override
  public synchronized boolean enabled(Switch which) {
    return states.get(which);
  }

  @Override
  public synchronized Map<Switch, Boolean> set(Switch which, boolean enabled) {
    states.put(which, enabled);
    return Map.copyOf(states);
  }

  @Override
  public synchronized Map<Switch, Boolean> all() {
    return Map.copyOf(states);
  }
}
