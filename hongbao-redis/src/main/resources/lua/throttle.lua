--[[
throttle.lua: a token bucket shared by every instance, one per reward type.

KEYS[1] bucket  hb:rwr:{<type>}   hash: tokens (may be fractional), ts (ms of the last refill)
ARGV[1] rate per second  ARGV[2] burst (bucket size)  ARGV[3] now (ms, the caller's clock)
ARGV[4] tokens wanted
KEYS[2] issued  hb:rwr:{<type>}:issued:<second of now>  tokens taken in that second (expires in
        15 s; the rain's live view reads the type's issue rate from it)

Replies (integer):
  0   the tokens were taken
  n   nothing taken; about n ms until enough tokens are there

A new bucket starts full. A caller whose clock lags never refills backwards (ts only grows). The
key expires after a minute unused (it would be full by then anyway).

Atomic because refill, check and take must not interleave between instances: that is what makes
the limit hold across all of them.
--]]
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local want = tonumber(ARGV[4])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'ts')
local tokens = tonumber(state[1])
local ts = tonumber(state[2])
if tokens == nil or ts == nil then
  tokens = burst
  ts = now
end
if now > ts then
  tokens = math.min(burst, tokens + (now - ts) * rate / 1000)
  ts = now
end
local wait = 0
if tokens >= want then
  tokens = tokens - want
  redis.call('INCRBY', KEYS[2], want)
  if redis.call('PTTL', KEYS[2]) < 0 then redis.call('PEXPIRE', KEYS[2], 15000) end
else
  wait = math.ceil((want - tokens) * 1000 / rate)
  if wait < 1 then wait = 1 end
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(ts))
redis.call('PEXPIRE', KEYS[1], 60000)
return wait
