-- wrk script: every request grabs one packet as a user never seen before, as the hot bench does.
-- wrk -s grab.lua URL -- PACKET_ID TOKENS_FILE
-- Thread i of n sends tokens i, i + n, i + 2n, ... of the file; it must hold more tokens than the
-- run makes requests, or users repeat (counted as "other" below, not as GRABBED).

local threads = {}

function setup(thread)
  thread:set("index", #threads)
  table.insert(threads, thread)
end

function init(args)
  path = "/api/v1/packets/" .. args[1] .. "/grab"
  tokens = {}
  for line in io.lines(args[2]) do
    tokens[#tokens + 1] = line
  end
  step = tonumber(args[3])
  next_token = index + 1
  grabbed = 0
  other = 0
end

function request()
  local token = tokens[next_token] or tokens[1]
  next_token = next_token + step
  return wrk.format("POST", path, {
    ["Authorization"] = "Bearer " .. token,
    ["Content-Type"] = "application/json",
  }, "{}")
end

function response(status, headers, body)
  if status == 200 and body:find('"GRABBED"', 1, true) then
    grabbed = grabbed + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local g, o = 0, 0
  for _, thread in ipairs(threads) do
    g = g + thread:get("grabbed")
    o = o + thread:get("other")
  end
  local seconds = summary.duration / 1e6
  io.write(string.format(
    "wrk: %d GRABBED, %d other answers, %.0f GRABBED/s over %.2f s; p50 %.2f ms, p99 %.2f ms\n",
    g, o, g / seconds, seconds, latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
