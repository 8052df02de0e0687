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

  /**
   * As {@link #find}, reading the shared store again when the local copy does not have it: a type
   * defined on another instance a moment ago is not in this one's copy yet, and a reward of it must
   * not be refused, or failed for good, for that. Blocks; a miss costs a read of every type.
   */
  default Optional<RewardType> findFresh(String type) {
    return find(type);
  }

  /** Stores a type for every instance and returns it. */
  RewardType put(RewardType type);

  List<RewardType> all();
}
