package hongbao.core.reward;

import java.util.List;
import java.util.Optional;

/**
 * Port: the reward types shared by every instance. Reads are cheap (a local copy refreshed at least
 * every five seconds), because every reward sent and every event consumed asks.
 */
public interface RewardTypes {

  /** The type, if an operator defined it (CASH is always defined). */
  Optional<RewardType> find(String type);

  /** Stores a type for every instance and returns it. */
  RewardType put(RewardType type);

  List<RewardType> all();
}
