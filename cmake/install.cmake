# What `cmake --install` puts in the prefix: bin/g500, and the Python tools (the report, the plots of
# g500 coll and g500 map) with the modules they import in share/g500/tools (bin/g500report links to
# the report, so it finds its modules).
install(TARGETS g500 RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
set(G500_TOOLS_DESTINATION ${CMAKE_INSTALL_DATADIR}/g500/tools)
install(PROGRAMS tools/g500report tools/coll_plot.py tools/plot_link_loads.py DESTINATION ${G500_TOOLS_DESTINATION})
install(FILES tools/input_check.py tools/output_file.py tools/plotting.py tools/report_figure.py tools/report_page.py
              tools/report_run.py tools/report_scaling.py tools/report_sssp.py tools/requirements.txt DESTINATION ${G500_TOOLS_DESTINATION})
file(RELATIVE_PATH G500_TOOLS_FROM_BIN /${CMAKE_INSTALL_BINDIR} /${G500_TOOLS_DESTINATION})
install(CODE "file(MAKE_DIRECTORY \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}\")
file(CREATE_LINK \"${G500_TOOLS_FROM_BIN}/g500report\" \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/g500report\" SYMBOLIC)
message(STATUS \"Installing: \$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/g500report -> ${G500_TOOLS_FROM_BIN}/g500report\")")
