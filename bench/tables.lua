-- The load client of bench/tables.py, run by wrk (Debian's `wrk`, C and LuaJIT): far less CPU
-- a request than the server's, so on a 2-core machine the client does not take the cores it
-- measures. A few wrk threads (one per core), each with many keep-alive connections.
--
-- Each thread reads its tables from TABLES_DIR/tables-<thread>.txt ("match version scorer
-- watcher watcher watcher watcher" a line) and sends, on its schedule, each table's save every
-- TABLES_SAVE_EVERY s and five polls every TABLES_POLL_EVERY s (the scorer's page and four
-- watchers' boards, each naming the version it last saw in If-None-Match, as the pages do).
-- A request is sent at its time, or as soon as one of the thread's connections is free after
-- it (then it is late by the difference). wrk tells a script neither which connection sends
-- nor which request an answer is to, so a phone takes, as it polls, the version its poll
-- finds: the table's version after the saves this thread sent (a poll that meets a save still
-- under way sees the next version one poll later), and the latencies are wrk's own, of every
-- request (saves are 1 in 200). At the end the figures go to TABLES_DIR/result.txt.
--
-- With TABLES_FLOOD=1 there is no schedule: each connection sends its phones' unchanged polls
-- one after another as fast as the server answers (the server's saturation throughput), and
-- the answers are not read by the script (wrk counts those of 400 and over as errors).
local ffi = require("ffi")
ffi.cdef [[
typedef struct { long tv_sec; long tv_nsec; } tables_timespec;
int clock_gettime(int clock, tables_timespec *now);
]]
local clock_now = ffi.new("tables_timespec")
local function now()
  ffi.C.clock_gettime(1, clock_now) -- CLOCK_MONOTONIC
  return tonumber(clock_now.tv_sec) + tonumber(clock_now.tv_nsec) * 1e-9
end

local FLOOD = os.getenv("TABLES_FLOOD") == "1"
local DIR = os.getenv("TABLES_DIR")
local POLL_EVERY = tonumber(os.getenv("TABLES_POLL_EVERY") or "3")
local SAVE_EVERY = tonumber(os.getenv("TABLES_SAVE_EVERY") or "120")
local SESSION = os.getenv("TABLES_SESSION") or ""
local CSRF = os.getenv("TABLES_CSRF") or ""
-- this run's own part of every save's request key: the schedule (math.randomseed below) is the
-- same in every run, and a key sent again to its match is "already saved" (no new version:
-- every phone of that table then polled a version the match never reached, each poll a changed one)
local RUN = os.getenv("TABLES_RUN") or "run"
local LEAD = 0.3 -- seconds for every connection to open before the first request is due
local HANDS = {
  "trump=wyrms&mode=high&bid=5&tricks_0=5&tricks_1=6&tricks_2=0",
  "trump=moons&mode=low&bid=3&tricks_0=3&tricks_1=8&tricks_2=0",
  "trump=knots&mode=high&bid=7&tricks_0=7&tricks_1=4&tricks_2=0",
  "trump=suns&mode=low&bid=0&tricks_0=0&tricks_1=11&tricks_2=0",
}

-- the main state: one entry per thread, for done()
local threads = {}
function setup(thread)
  thread:set("id", #threads)
  table.insert(threads, thread)
end

-- a thread's state
local phones, saves = {}, {}
local began
local next_phone, phone_round, next_save, save_round = 1, 0, 1, 0
-- what the connections waiting for their time will send, in the order they are due
local reserved, first, last = {}, 1, 0
-- globals, each read by done() through thread:get (wrk's copy of a table in a table crashes)
late_max, late_over, sent, saved, unchanged, answered, errors, first_error, closed = 0, 0, 0, 0, 0, 0, 0, "", 0

function init(args)
  math.randomseed(id * 7919 + 1)
  for line in io.lines(DIR .. "/tables-" .. id .. ".txt") do
    local fields = {}
    for field in line:gmatch("%S+") do fields[#fields + 1] = field end
    local tbl = { match = fields[1], version = tonumber(fields[2]), scorer = fields[3], saves = 0 }
    phones[#phones + 1] = { tbl = tbl, kind = "live", device = fields[3], offset = math.random() * POLL_EVERY }
    for w = 4, 7 do
      phones[#phones + 1] = { tbl = tbl, kind = "board", device = fields[w], etag = tbl.version,
                              offset = math.random() * POLL_EVERY }
    end
    saves[#saves + 1] = { tbl = tbl, offset = math.random() * SAVE_EVERY }
  end
  table.sort(phones, function(a, b) return a.offset < b.offset end)
  table.sort(saves, function(a, b) return a.offset < b.offset end)
  began = now() + LEAD
end

local function poll_request(phone)
  local seen = phone.kind == "live" and phone.tbl.version or phone.etag
  if phone.sent_for ~= seen then -- made again only when the version it names changes
    phone.request = "GET /matches/" .. phone.tbl.match .. "/" .. phone.kind .. " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
      .. "Cookie: scorekeeper_device=" .. phone.device .. "\r\nHX-Request: true\r\n"
      .. "If-None-Match: W/\"v" .. seen .. "\"\r\n\r\n"
    phone.sent_for = seen
  end
  phone.etag = phone.tbl.version -- what its answer shows
  return phone.request
end

local function save_request(tbl)
  local body = HANDS[tbl.saves % #HANDS + 1] .. "&csrf_token=" .. CSRF .. "&version=" .. tbl.version
    .. string.format("&request_key=%s%02d%08x", RUN, id, saved)
  tbl.version, tbl.saves = tbl.version + 1, tbl.saves + 1 -- a save that made no version: an error (tables.py)
  saved = saved + 1
  return "POST /matches/" .. tbl.match .. "/hands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    .. "Cookie: scorekeeper_device=" .. tbl.scorer .. "; session=" .. SESSION .. "\r\nHX-Request: true\r\n"
    .. "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " .. #body .. "\r\n"
    .. "Referer: http://127.0.0.1/matches/" .. tbl.match .. "\r\n\r\n" .. body
end

local flood_next = 1
if FLOOD then
  function request()
    local phone = phones[flood_next]
    flood_next = flood_next % #phones + 1
    sent = sent + 1
    return poll_request(phone)
  end
else
  -- wrk asks, when a connection is free, how long it waits before its next request: the time
  -- left to the next request due, reserved for the request() that follows on some connection
  function delay()
    local poll_at = began + phone_round * POLL_EVERY + phones[next_phone].offset
    local save_at = #saves > 0 and began + save_round * SAVE_EVERY + saves[next_save].offset or math.huge
    local item
    if poll_at <= save_at then
      item = { phone = phones[next_phone], at = poll_at }
      next_phone = next_phone + 1
      if next_phone > #phones then next_phone, phone_round = 1, phone_round + 1 end
    else
      item = { save = saves[next_save].tbl, at = save_at }
      next_save = next_save + 1
      if next_save > #saves then next_save, save_round = 1, save_round + 1 end
    end
    last = last + 1
    reserved[last] = item
    local wait = math.ceil((item.at - now()) * 1000)
    return wait > 0 and wait or 0
  end

  function request()
    if first > last then -- wrk's check of the script before the run: nothing is due
      return poll_request(phones[1])
    end
    local item = reserved[first] -- the earliest due: timers end in the order they were set
    reserved[first] = nil
    first = first + 1
    local late = now() - item.at
    if late > late_max then late_max = late end
    if late > 1 then late_over = late_over + 1 end
    sent = sent + 1
    if item.save then return save_request(item.save) end
    return poll_request(item.phone)
  end

  function response(status, headers, body)
    if headers["Connection"] == "close" or headers["connection"] == "close" then closed = closed + 1 end
    if status == 304 then
      unchanged = unchanged + 1
    elseif status == 200 then
      answered = answered + 1
    else
      errors = errors + 1
      if first_error == "" then first_error = tostring(status) end
    end
  end
end

function done(summary, latency, requests)
  local out = assert(io.open(DIR .. "/result.txt", "w"))
  local e = summary.errors
  out:write(string.format("requests %d\nduration %f\n", summary.requests, summary.duration / 1e6 - (FLOOD and 0 or LEAD)))
  out:write(string.format("socket_errors %d\nstatus_errors %d\n", e.connect + e.read + e.write + e.timeout, e.status))
  out:write(string.format("bytes %d\n", summary.bytes))
  out:write(string.format("p50 %f\np95 %f\nmax %f\n", latency:percentile(50) / 1000, latency:percentile(95) / 1000,
                          latency.max / 1000))
  for _, thread in ipairs(threads) do
    out:write(string.format("thread %d %d %f %d %d %d %d %d\n", thread:get("sent"), thread:get("late_over"),
                            thread:get("late_max") * 1000, thread:get("saved"), thread:get("unchanged"),
                            thread:get("answered"), thread:get("errors"), thread:get("closed")))
    if thread:get("first_error") ~= "" then out:write("error answer " .. thread:get("first_error") .. "\n") end
  end
  out:close()
end
