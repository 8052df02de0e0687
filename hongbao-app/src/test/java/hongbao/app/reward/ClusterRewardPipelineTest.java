package hongbao.app.reward;

import hongbao.app.support.Backends;

/**
 * The whole pipeline again on an embedded Redis Cluster of three masters: budget keys, token
 * copies, type buckets and reward streams spread over the masters by their hash tags, each Redis
 * topic split over four streams that the consumers read slot by slot.
 */
class ClusterRewardPipelineTest extends RewardPipelineTest {

  @Override
  Backends backends() {
    return Backends.embeddedCluster();
  }

  @Override
  int streamsPerTopic() {
    return 4;
  }
}
