# cmake -DWEB=tools/web -DOUTPUT=viewer_bundle.js -P bundle_viewer.cmake
# Bundles tools/web/viewer/main.js with three.js by esbuild (both pinned in tools/web/package.json)
# into one minified script; writes an empty script, with a warning, when tools/web/node_modules
# is missing (`navlab view` then refuses and says to run tools/install-deps.sh). OUTPUT changes
# only when its content does.
set(esbuild ${WEB}/node_modules/.bin/esbuild)
if(EXISTS ${esbuild} AND EXISTS ${WEB}/node_modules/three/package.json)
  execute_process(
    COMMAND ${esbuild} ${WEB}/viewer/main.js --bundle --format=iife --minify --legal-comments=inline
            --log-level=warning --outfile=${OUTPUT}.new
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "esbuild failed on ${WEB}/viewer/main.js")
  endif()
else()
  message(WARNING "${WEB}/node_modules is missing (run tools/install-deps.sh): `navlab view` will refuse to write pages")
  file(WRITE ${OUTPUT}.new "")
endif()
file(COPY_FILE ${OUTPUT}.new ${OUTPUT} ONLY_IF_DIFFERENT)
file(REMOVE ${OUTPUT}.new)
