package hongbao.core.reward;

import java.util.List;

/**
 * Port: the server's copies of the tokens of rewards not yet credited, per user and campaign. A
 * copy is written when a reward is accepted (one attempt, no retry: a token whose copy is missing
 * is UNKNOWN and is never force-credited) and deleted once the reward is settled: credited, or
 * refused for good by its issuer.
 */
public interface TokenStore {

  /** Keeps the server's copy of a token. */
  void save(Reward reward, String token);

  /** Whether the server still holds the copy of this reward's token. */
  boolean holds(Reward reward);

  /** Forgets the copy once the reward is settled; nothing happens if there is none. */
  void delete(Reward reward);

  /** The tokens still held for a user, at most {@code max}. */
  List<String> pending(String userId, int max);
}
